/* dhcp: the DHCPv4 client, on a packet socket before the interface has an address. */
#ifndef LIFEBOAT_NET_DHCP_H
#define LIFEBOAT_NET_DHCP_H

#include <stdbool.h>
#include <stdint.h>

#include "net/dhcp4/backoff.h"
#include "net/dhcp4/dhcppkt.h"
#include "net/link/link.h"

/* One conversation on one interface: a socket and a retransmission timer,
 * driven by its caller's poll() so that several run at once. */
struct dhcp_client {
	int fd;
	const struct link_info *link;
	struct backoff rnd;
	uint64_t start_ms;
	uint64_t next_ms;             /* when to retransmit */
	struct dhcp_request req;
	unsigned int attempt;
	struct dhcp_lease lease;      /* the ACK's, once done */
	bool done;
};

/* Open the socket on link (which must be up) and send the first DISCOVER;
 * hostname (may be NULL) is sent as option 12. 0 or -errno. */
int dhcp_client_start(struct dhcp_client *c, const struct link_info *link, const char *hostname);
/* Call when poll() says c->fd is readable: 1 when the lease is ours (in
 * c->lease), 0 to go on, -errno when the socket fails. */
int dhcp_client_input(struct dhcp_client *c);
/* Call when c->next_ms has passed: retransmits with randomised exponential
 * backoff (REQUEST four times unanswered starts over). 0 or -errno. */
int dhcp_client_timer(struct dhcp_client *c);
/* Close the socket; a lease not won is wiped. */
void dhcp_client_stop(struct dhcp_client *c);

#endif
