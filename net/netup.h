/* netup: bring one interface up and configure it, from ip= or by DHCP. */
#ifndef LIFEBOAT_NET_NETUP_H
#define LIFEBOAT_NET_NETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/dhcppkt.h"
#include "net/ipconf.h"
#include "net/link.h"

/* What IPv6 configuration gave: DHCPv6, router advertisements, or ip=. */
struct net6_conf {
	const char *method;           /* "dhcp6", "auto6", "static"; NULL: no IPv6 */
	struct in6_addr addr;
	int prefix;
	struct in6_addr gateway;      /* the router advertising, or ip='s; :: none */
	struct in6_addr server;       /* the DHCPv6 server that answered */
	struct in6_addr dns[DHCP_DNS_MAX];
	unsigned int n_dns;
	char domain[DHCP_STR_MAX];
	char boot_url[DHCP_STR_MAX];  /* DHCPv6 option 59 (RFC 5970) */
};

struct net_state {
	struct link_info link;        /* the interface configured */
	struct dhcp_lease conf;       /* its IPv4 configuration (from DHCP or ip=) */
	bool from_dhcp;
	struct net6_conf conf6;       /* its IPv6 one, when ip= asked for IPv6 */
};

/* Each wait has its own bound (rd.net.timeout.*) and ends at the step's
 * deadline too (rd.timeout= for a network root) when that comes first. */
struct netup_limits {
	unsigned int link_ms;         /* for an interface with a carrier */
	unsigned int dhcp_ms;         /* for a lease, per interface; UINT_MAX: the deadline's */
	unsigned int dhcp_tries;      /* rounds over every interface (rd.net.dhcp.retry=; 0 is 1) */
	unsigned int say_after_ms;    /* a wait this long is said on the console once; 0: never */
	uint64_t deadline;            /* clock_now_ms() time; 0: none */
};

/* The bound of one wait, own_ms or what is left before lim's deadline;
 * *cut (may be NULL) says whether the deadline cut it, for the message. */
unsigned int netup_wait_ms(const struct netup_limits *lim, unsigned int own_ms, bool *cut);

/* Wait for interfaces (loading their drivers), bring them up, configure the
 * first that works: the one ipc or bootdev names, else each with a carrier
 * in turn. Returns 0, or -errno with the reason in why. */
int netup_configure(const struct ip_conf *ipc, const char *bootdev,
		    const struct netup_limits *lim, struct net_state *out,
		    char *why, size_t why_size);

#endif
