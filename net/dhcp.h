/* dhcp: the DHCPv4 client, on a packet socket before the interface has an address. */
#ifndef LIFEBOAT_NET_DHCP_H
#define LIFEBOAT_NET_DHCP_H

#include "net/dhcppkt.h"
#include "net/link.h"

/* DISCOVER, OFFER, REQUEST, ACK on link (which must be up), retransmitting
 * with randomised exponential backoff until timeout_ms passes. hostname
 * (may be NULL) is sent as option 12. Returns 0 with the ACK's lease,
 * -ETIMEDOUT, or another -errno from the socket. */
int dhcp_run(const struct link_info *link, const char *hostname, unsigned int timeout_ms,
	     struct dhcp_lease *out);

#endif
