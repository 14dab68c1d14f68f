/* net_state: what configuring an interface gave: the interface, its IPv4
 * and IPv6 configuration. The race fills it (leaserace.h), ifup.c applies
 * it; its parts are written for the real root (ifstate.h), and iSCSI's
 * login takes DHCP's root-path and the MAC from it. */
#ifndef LIFEBOAT_NET_NET_STATE_H
#define LIFEBOAT_NET_NET_STATE_H

#include <stdbool.h>

#include "net/dhcp4/dhcppkt.h"
#include "net/ip6/net6_conf.h"
#include "net/link/link.h"

struct net_state {
	struct link_info link;        /* the interface configured */
	struct dhcp_lease conf;       /* its IPv4 configuration (from DHCP or ip=) */
	bool from_dhcp;
	struct net6_conf conf6;       /* its IPv6 one, when ip= asked for IPv6 */
};

#endif
