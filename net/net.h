/* net: network root for the init: bring the network up (ip=, DHCP) and
 * mount the root over NFS. docs/network.md has the parameters. */
#ifndef LIFEBOAT_NET_NET_H
#define LIFEBOAT_NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bootlib/cmdline.h"

/* What net/ is given of the command line: the root's words (root=, ro/rw,
 * rd.timeout=), the network's, and the iSCSI ones (credentials included)
 * only when the root is on iSCSI; nothing else of the boot's arguments. */
struct net_request {
	const struct root_args *root;
	const struct net_args *net;
	struct iscsi_args *iscsi;             /* its passwords are wiped after the login */
};

/* Whether the command line puts the root on the network: root=nfs:,
 * root=nfs4:, root=SERVER:/PATH, root=/dev/nfs, root=dhcp, netroot=nfs:, or
 * no root= at all with ip=dhcp or rd.neednet. */
bool net_root_wanted(const struct net_request *args);
/* Configure the network as ip=/bootdev= say (DHCP when they say nothing),
 * then mount the NFS root at SYSROOT, all of it within rd.timeout= (each
 * wait also within its rd.net.timeout.* word). Returns 0, or -errno with
 * what failed and what the user can do in why. */
int net_root_mount(const struct net_request *args, char *why, size_t why_size);
/* rd.neednet=1 with a local root, or kdump's network targets: only
 * configure the network, each wait bounded by its rd.net.timeout.* word. */
int net_bring_up(const struct net_args *args, char *why, size_t why_size);
/* net_bring_up, telling what was configured (interface, DHCP lease) in
 * *st (net/netup.h): a root on iSCSI needs DHCP's root-path and the MAC.
 * Every wait also ends at deadline (clock_now_ms() time, 0: none). */
struct net_state;
int net_bring_up_state(const struct net_args *args, uint64_t deadline, struct net_state *st,
		       char *why, size_t why_size);

#endif
