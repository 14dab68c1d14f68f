/* netroot: what the command line says of a root on the network, read once.
 * init/boot_plan.c calls net_root_classify(); the rest of net/ is given the
 * answer in struct net_request and reads root= and netroot= no more. */
#ifndef LIFEBOAT_NET_NETROOT_H
#define LIFEBOAT_NET_NETROOT_H

#include <stdbool.h>

#include "net/iscsi_args.h"
#include "net/net_args.h"

enum net_root_kind {
	NET_ROOT_NONE,      /* the root is a local disk */
	NET_ROOT_NFS,
	NET_ROOT_ISCSI,
	NET_ROOT_LIVE,      /* root=live:URL: an image fetched over HTTP(S) (net/liveroot.h) */
};

/* Where the root's location comes from. */
enum net_root_from {
	NET_ROOT_FROM_DHCP,      /* DHCP's root-path (option 17), DHCPv6's boot file URL */
	NET_ROOT_FROM_SPEC,      /* root= or netroot= names it: spec, spec_word */
	NET_ROOT_FROM_NFSROOT,   /* root=/dev/nfs with nfsroot= (the kernel's form) */
	NET_ROOT_FROM_PARAMS,    /* rd.iscsi.target.name= and the other rd.iscsi.target.* */
	NET_ROOT_FROM_FIRMWARE,  /* rd.iscsi.firmware: the firmware's iSCSI boot table */
};

struct net_root {
	enum net_root_kind kind;
	enum net_root_from from;
	const char *spec;        /* the location as written (may hold a CHAP secret), or "" */
	const char *spec_word;   /* where it was written, for messages: "root=", "netroot=" */
	const char *root;        /* root= as given ("": none), for messages and a LUN's filesystem */
	bool nfs4;               /* root=nfs4:..., netroot=nfs4... */
	bool kernel_default;     /* root=/dev/nfs: with no root-path from DHCP, /tftpboot/%s */
	bool netroot_dhcp;       /* netroot=dhcp was given */
	bool root_is_lun;        /* iSCSI: root= names no filesystem, the LUN's disk is the root */
};

/* The root's kind and location from root= (the init's word) and the
 * network's and iSCSI's words; the strings of out point into them.
 * iSCSI when: netroot=iscsi..., root=iscsi:..., rd.iscsi.target.name=,
 * rd.iscsi.firmware, or netroot=dhcp with a root= that names a filesystem
 * (UUID=, LABEL=, /dev/...) or the LUN's disk (root=/dev/root, dracut's;
 * root=iscsi): a disk that comes over the network is an iSCSI LUN, whose
 * location is DHCP's root-path. NFS when: root=nfs:, root=nfs4:,
 * root=SERVER:/PATH, root=/dev/nfs, root=dhcp, netroot=nfs..., netroot=dhcp,
 * or no root= at all with ip=dhcp or rd.neednet. A live image when
 * root=live: (before all of these: its URL has a colon and slashes). */
void net_root_classify(const char *root, const struct net_args *net,
		       const struct iscsi_args *iscsi, struct net_root *out);

#endif
