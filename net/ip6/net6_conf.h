/* net6_conf: what IPv6 configuration gave an interface, filled by the
 * DHCPv6 and SLAAC clients or from ip=, and written for the real root. */
#ifndef LIFEBOAT_NET_NET6_CONF_H
#define LIFEBOAT_NET_NET6_CONF_H

#include <netinet/in.h>

#include "net/dhcp4/dhcppkt.h"

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

#endif
