/* netup: bring one interface up and configure it, from ip= or by DHCP. */
#ifndef LIFEBOAT_NET_NETUP_H
#define LIFEBOAT_NET_NETUP_H

#include <stddef.h>

#include "net/dhcppkt.h"
#include "net/ipconf.h"
#include "net/link.h"

struct net_state {
	struct link_info link;        /* the interface configured */
	struct dhcp_lease conf;       /* its configuration (from DHCP or ip=) */
	bool from_dhcp;
};

struct netup_limits {
	unsigned int link_ms;         /* for an interface with a carrier */
	unsigned int dhcp_ms;         /* for a lease, per interface */
};

/* Wait for interfaces (loading their drivers), bring them up, configure the
 * first that works: the one ipc or bootdev names, else each with a carrier
 * in turn. Returns 0, or -errno with the reason in why. */
int netup_configure(const struct ip_conf *ipc, const char *bootdev,
		    const struct netup_limits *lim, struct net_state *out,
		    char *why, size_t why_size);

#endif
