/* net: network root for the init: bring the network up (ip=, DHCP) and
 * mount the root over NFS. docs/network.md has the parameters. */
#ifndef LIFEBOAT_NET_NET_H
#define LIFEBOAT_NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/iscsi_args.h"
#include "net/net_args.h"
#include "net/netroot.h"

/* What net/ is given for a root on the network: what the command line
 * says of it (read once by init/boot_plan.c), the network's words, the iSCSI
 * ones (credentials included) only when the root is on iSCSI, and of the
 * root's words only ro/rw and rd.timeout=. */
struct net_request {
	struct net_root root;
	const struct net_args *net;
	struct iscsi_args *iscsi;             /* its passwords are wiped after the login */
	bool read_write;                      /* rw */
	unsigned int timeout_sec;             /* rd.timeout=: the whole step; 0: none */
};

/* Configure the network as ip=/bootdev= say (DHCP when they say nothing),
 * then mount the NFS root at SYSROOT, all of it within rd.timeout= (each
 * wait also within its rd.net.timeout.* word). Returns 0, or -errno with
 * what failed and what the user can do in why. */
int net_root_mount(const struct net_request *args, char *why, size_t why_size);
/* rd.neednet=1 with a local root, or kdump's network targets: only
 * configure the network, each wait bounded by its rd.net.timeout.* word. */
int net_bring_up(const struct net_args *args, char *why, size_t why_size);
/* net_bring_up, telling what was configured (interface, DHCP lease) in
 * *st (net/config/net_state.h): a root on iSCSI needs DHCP's root-path and the MAC.
 * Every wait also ends at deadline (clock_now_ms() time, 0: none). */
struct net_state;
int net_bring_up_state(const struct net_args *args, uint64_t deadline, struct net_state *st,
		       char *why, size_t why_size);

#endif
