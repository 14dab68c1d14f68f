/* addrwatch: the kernel's news of IPv6 addresses (rtnetlink RTMGRP_IPV6_IFADDR), for DAD. */
#ifndef LIFEBOAT_NET_ADDRWATCH_H
#define LIFEBOAT_NET_ADDRWATCH_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One RTM_NEWADDR or RTM_DELADDR of an IPv6 address. */
struct addr_event {
	int index;
	bool removed;
	uint8_t prefix;
	uint8_t scope;                /* RT_SCOPE_UNIVERSE, RT_SCOPE_LINK, ... */
	uint32_t flags;               /* IFA_F_TENTATIVE, IFA_F_DADFAILED, ... */
	struct in6_addr addr;
};

/* Open a non-blocking rtnetlink socket subscribed to IPv6 address changes,
 * and ask on it for the addresses already there (their answers arrive as
 * the same RTM_NEWADDR messages), so that nothing before the subscription
 * is missed. Returns the fd or -errno. */
int addrwatch_open(void);
/* Parse one datagram: up to max IPv6 address messages go to out (others
 * skipped). Returns how many were stored, or -EINVAL when a header or an
 * attribute is cut off or runs past its message, or a prefix is longer than
 * 128 bits. */
int addrwatch_parse(const void *buf, size_t len, struct addr_event *out, int max);
/* Read one queued datagram and parse it. Returns how many events, or 0
 * when nothing is queued or the datagram was malformed; when the kernel
 * dropped messages it asks for every address again (their answers come as
 * events) and returns 0. -errno when the socket fails. */
int addrwatch_read(int fd, struct addr_event *out, int max);
/* Ask again for every IPv6 address (after lost messages). */
int addrwatch_dump(int fd);
/* Whether ev is a usable address of interface index: present, DAD done
 * (not tentative, not failed), of the scope asked for. */
bool addrwatch_event_usable(const struct addr_event *ev, int index, uint8_t scope);

#endif
