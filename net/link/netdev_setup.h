/* netdev_setup: the interfaces the command line makes or names, before ip=
 * configures one: ifname= renames, vlan=/bond=/bridge= create, BOOTIF=
 * picks (docs/network.md). */
#ifndef LIFEBOAT_NET_NETDEV_SETUP_H
#define LIFEBOAT_NET_NETDEV_SETUP_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/strv.h"

#define NETDEV_SETUP_MAX 16

struct netdev_setup_request {
	const struct strv *words;     /* vlan=, bond=, bridge=, ifname= words, in order */
	const char *bootif;           /* BOOTIF='s value, "" for none */
	unsigned int wait_ms;         /* for the interfaces they name to appear */
	bool wait_cut;                /* wait_ms is what rd.timeout= left, not iflink's */
};

/* Wait (loading drivers as devices appear) for the interfaces the words
 * name, rename (ifname=), then make each VLAN, bond and bridge once what
 * it stands on exists. bootdev gets the name of BOOTIF's interface, "" when
 * there is none. Returns 0, or -errno with the word, what failed and what
 * the user can do in why. */
int netdev_setup_run(const struct netdev_setup_request *req, char bootdev[IF_NAMESIZE],
		     char *why, size_t why_size);

#endif
