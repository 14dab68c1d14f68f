/* ifup: bring one interface up and configure it, from ip= or by DHCP. */
#ifndef LIFEBOAT_NET_IFUP_H
#define LIFEBOAT_NET_IFUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/config/ipparam.h"
#include "net/config/net_state.h"

/* Each wait has its own bound (rd.net.timeout.*) and ends at the step's
 * deadline too (rd.timeout= for a network root) when that comes first. */
struct ifup_limits {
	unsigned int link_ms;         /* for an interface with a carrier */
	unsigned int dhcp_ms;         /* for a lease, per interface; UINT_MAX: the deadline's */
	unsigned int dhcp_tries;      /* rounds over every interface (rd.net.dhcp.retry=; 0 is 1) */
	unsigned int say_after_ms;    /* a wait this long is said on the console once; 0: never */
	uint64_t deadline;            /* clock_now_ms() time; 0: none */
};

/* The bound of one wait, own_ms or what is left before lim's deadline;
 * *cut (may be NULL) says whether the deadline cut it, for the message. */
unsigned int ifup_wait_ms(const struct ifup_limits *lim, unsigned int own_ms, bool *cut);

/* Wait for interfaces (loading their drivers), bring them up, configure the
 * first that works: the one ipc or bootdev names, else each with a carrier
 * in turn. Returns 0, or -errno with the reason in why. */
int ifup_configure(const struct ip_param *ipc, const char *bootdev,
		   const struct ifup_limits *lim, struct net_state *out,
		   char *why, size_t why_size);

#endif
