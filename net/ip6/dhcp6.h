/* dhcp6: the DHCPv6 client (RFC 8415 section 18): an address (IA_NA), name servers, the boot file URL. */
#ifndef LIFEBOAT_NET_DHCP6_H
#define LIFEBOAT_NET_DHCP6_H

#include <stdbool.h>
#include <stdint.h>

#include "net/dhcp4/backoff.h"
#include "net/ip6/dhcp6pkt.h"
#include "net/ip6/net6_conf.h"
#include "net/link/link.h"

enum dhcp6_state {
	DHCP6_WAIT_LINK_LOCAL,   /* the link-local address is still in DAD: nothing to send from */
	DHCP6_SOLICITING,
	DHCP6_REQUESTING,
	DHCP6_WAIT_DAD,          /* the address is added, DAD runs on it */
};

/* What the client asks of the system: dhcp6_io_system's calls at boot, fakes
 * in the unit tests and the fuzz target, which drive the state machine
 * without touching the machine's interfaces. Each returns 0 (or an fd) or
 * -errno. */
struct dhcp6_io {
	int (*udp_open)(const struct link_info *link);
	int (*send)(int fd, const void *buf, size_t len, const struct sockaddr_in6 *to);
	int (*add_address)(int index, const struct in6_addr *addr, int prefix);
	int (*addr_dump)(int nl_fd);
};
extern const struct dhcp6_io dhcp6_io_system;

/* One interface's conversation: an rtnetlink socket for its addresses, a
 * UDP socket on port 546 once the link-local address is usable, a timer. */
struct dhcp6_client {
	int nl_fd, udp_fd;
	const struct dhcp6_io *io;
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

/* The client's state before any I/O: no sockets, waiting for the
 * link-local address; io does what it asks of the system. */
void dhcp6_client_init(struct dhcp6_client *c, const struct link_info *link,
		       const struct dhcp6_io *io);
/* dhcp6_client_init with the system's calls; turn on accept_ra (the routes
 * come from the router's advertisements: DHCPv6 has no router option), and
 * wait for the link-local address. */
int dhcp6_client_start(struct dhcp6_client *c, const struct link_info *link);
/* fd number which (0: rtnetlink, 1: UDP) is readable: 1 once the leased
 * address has passed DAD, 0 to go on, -errno when a socket fails. A server's
 * address that cannot be used (not a unicast address, refused by the
 * kernel) is dropped and the client solicits again; one that fails DAD is
 * declined (RFC 8415 18.2.8) and the client solicits again. */
int dhcp6_client_input(struct dhcp6_client *c, int which);
/* Retransmit (a REQUEST unanswered ten times solicits again). 0 or -errno. */
int dhcp6_client_timer(struct dhcp6_client *c);
void dhcp6_client_stop(struct dhcp6_client *c);
void dhcp6_client_result(const struct dhcp6_client *c, struct net6_conf *out);

#endif
