/* slaac: IPv6 stateless autoconfiguration, waited for: the kernel makes the address from router advertisements. */
#ifndef LIFEBOAT_NET_SLAAC_H
#define LIFEBOAT_NET_SLAAC_H

#include <stdbool.h>
#include <stdint.h>

#include "net/dhcp4/backoff.h"
#include "net/ip6/net6_conf.h"
#include "net/ip6/ra.h"
#include "net/link/link.h"

/* One interface's wait: an rtnetlink socket for its addresses and an
 * ICMPv6 socket for the advertisements (what the boot reports: router,
 * name servers), with a timer that solicits routers again. */
struct slaac_client {
	int nl_fd, icmp_fd;
	const struct link_info *link;
	struct backoff rnd;
	uint64_t next_ms;
	unsigned int attempt;
	bool have_ra;
	struct ra_info ra;
	struct in6_addr router;
	struct in6_addr addr;         /* once done */
	int prefix;
	bool done;
};

/* Turn on accept_ra and autoconf for link, open the sockets, send a router
 * solicitation. 0 or -errno. */
int slaac_client_start(struct slaac_client *c, const struct link_info *link);
/* fd number which (0: rtnetlink, 1: ICMPv6) is readable: 1 once a global
 * address of the link has passed DAD, 0 to go on, -errno. */
int slaac_client_input(struct slaac_client *c, int which);
/* Solicit again (the advertisement may have been lost). 0 or -errno. */
int slaac_client_timer(struct slaac_client *c);
void slaac_client_stop(struct slaac_client *c);
/* What was learnt, as the boot's IPv6 configuration. */
void slaac_client_result(const struct slaac_client *c, struct net6_conf *out);

#endif
