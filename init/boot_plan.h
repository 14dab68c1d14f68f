/* boot_plan: what this boot will do, decided once from the command line. */
#ifndef LIFEBOAT_INIT_BOOT_PLAN_H
#define LIFEBOAT_INIT_BOOT_PLAN_H

#include <stdbool.h>

#include "init/bootargs.h"
#include "net/net.h"

enum root_kind {
	ROOT_KIND_DISK,     /* a block device: root=/dev/..., LABEL=, UUID=, ... */
	ROOT_KIND_NFS,      /* root=nfs:..., root=/dev/nfs, root=dhcp, netroot=nfs:... */
	ROOT_KIND_ISCSI,    /* netroot=iscsi:..., root=iscsi:..., rd.iscsi.* */
	ROOT_KIND_LIVE,     /* root=live:URL: an image over HTTP(S) in RAM (net/liveroot.h) */
};

struct boot_plan {
	/* A kernel started by a crash (it gives /proc/vmcore): the capture
	 * saves the dump and the boot goes no further (kdump/). */
	bool capture;
	enum root_kind root_kind;
	/* A disk root with rd.neednet: the network comes up before the real
	 * init, which may need it; and before the root's device wait when
	 * the image unlocks with Tang (tang), whose servers are on it. */
	bool neednet;
	bool tang;
	/* The image's clevis bindings may name a Tang server: a capture
	 * kernel brings the network up before its dump disks, a disk root's
	 * boot before the resume decision (tang). */
	bool tang_bindings;
	/* What net/ is given for an NFS or iSCSI root (the root as the
	 * command line names it, read here once), and rd.neednet's setup;
	 * its iscsi part is set for an iSCSI root only. */
	struct net_request net;
};

/* Decide from args, which must outlive plan. */
void boot_plan_make(struct boot_args *args, struct boot_plan *plan);
/* "disk", "NFS", "iSCSI", "live image", for messages. */
const char *boot_plan_root_kind_name(enum root_kind kind);
/* "disk", "nfs", "iscsi", "live": boot scripts' LIFEBOAT_ROOT_KIND. */
const char *boot_plan_root_kind_word(enum root_kind kind);

#endif
