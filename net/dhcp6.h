/* dhcp6: the DHCPv6 client (RFC 8415 section 18): an address (IA_NA), name servers, the boot file URL. */
#ifndef LIFEBOAT_NET_DHCP6_H
#define LIFEBOAT_NET_DHCP6_H

#include <stdbool.h>
#include <stdint.h>

#include "net/backoff.h"
#include "net/dhcp6pkt.h"
#include "net/link.h"
#include "net/netup.h"

enum dhcp6_state {
	DHCP6_WAIT_LINK_LOCAL,   /* the link-local address is still in DAD: nothing to send from */
	DHCP6_SOLICITING,
	DHCP6_REQUESTING,
	DHCP6_WAIT_DAD,          /* the address is added, DAD runs on it */
};

/* One interface's conversation: an rtnetlink socket for its addresses, a
 * UDP socket on port 546 once the link-local address is usable, a timer. */
struct dhcp6_client {
	int nl_fd, udp_fd;
	const struct link_info *link;
	enum dhcp6_state state;
	struct backoff rnd;
	uint64_t start_ms, next_ms;
	unsigned int attempt;
	struct dhcp6_request req;
	struct dhcp6_lease offer;     /* the ADVERTISE requested */
	struct dhcp6_lease lease;     /* the REPLY's */
	struct in6_addr server;       /* where the REPLY came from */
	bool done;
};

/* Turn on accept_ra (the routes come from the router's advertisements:
 * DHCPv6 has no router option), and wait for the link-local address. */
int dhcp6_client_start(struct dhcp6_client *c, const struct link_info *link);
/* fd number which (0: rtnetlink, 1: UDP) is readable: 1 once the leased
 * address has passed DAD, 0 to go on, -errno (-EADDRINUSE: DAD failed). */
int dhcp6_client_input(struct dhcp6_client *c, int which);
/* Retransmit (a REQUEST unanswered ten times solicits again). 0 or -errno. */
int dhcp6_client_timer(struct dhcp6_client *c);
void dhcp6_client_stop(struct dhcp6_client *c);
void dhcp6_client_result(const struct dhcp6_client *c, struct net6_conf *out);

#endif
