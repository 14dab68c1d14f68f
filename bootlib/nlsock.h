/* nlsock: a netlink socket bound to the kernel's multicast groups
 * (uevents, rtnetlink's link and address events, the iSCSI transport). */
#ifndef LIFEBOAT_BOOTLIB_NLSOCK_H
#define LIFEBOAT_BOOTLIB_NLSOCK_H

/* socket(AF_NETLINK, type | SOCK_CLOEXEC, protocol) bound to groups (a
 * mask; 0: none, for requests only). type may carry SOCK_NONBLOCK.
 * Returns the descriptor or -errno. */
int nlsock_open(int type, int protocol, unsigned int groups);

#endif
