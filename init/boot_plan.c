/* boot_plan: what this boot will do, decided once from the command line.
 *
 * The root's kind is read here and nowhere else: the flow in init/boot.c
 * dispatches on it, net/ is given the root as read here (struct net_root),
 * and each component is given only its part of the command line
 * (init/bootargs.h), so the iSCSI credentials reach net/'s login and
 * nothing else. */
#include "init/boot_plan.h"

#include <unistd.h>

#include "common/layout.h"
#include "kdump/kdump.h"

static enum root_kind root_kind_of(enum net_root_kind kind)
{
	return kind == NET_ROOT_ISCSI ? ROOT_KIND_ISCSI :
	       kind == NET_ROOT_NFS ? ROOT_KIND_NFS :
	       kind == NET_ROOT_LIVE ? ROOT_KIND_LIVE : ROOT_KIND_DISK;
}

void boot_plan_make(struct boot_args *args, struct boot_plan *plan)
{
	plan->capture = kdump_capture_needed();
	plan->net = (struct net_request){ .net = &args->net, .iscsi = &args->iscsi,
					  .read_write = args->root.rw == ROOT_RW_RW,
					  .timeout_sec = args->root.timeout_sec };
	net_root_classify(args->root.root, &args->net, &args->iscsi, &plan->net.root);
	plan->root_kind = root_kind_of(plan->net.root.kind);
	if (plan->root_kind != ROOT_KIND_ISCSI)
		plan->net.iscsi = NULL;
	/* The generator marks an image whose clevis bindings may name a Tang
	 * server (the host's root, or --clevis): the image's word that its
	 * containers want the network. */
	plan->tang_bindings = access(LAYOUT_CLEVIS, X_OK) == 0 && access(LAYOUT_CLEVIS_NET, F_OK) == 0;
	plan->tang = plan->root_kind == ROOT_KIND_DISK && plan->tang_bindings;
	plan->neednet = plan->root_kind == ROOT_KIND_DISK && (args->net.neednet || plan->tang);
}

const char *boot_plan_root_kind_name(enum root_kind kind)
{
	static const char *const names[] = {
		[ROOT_KIND_DISK] = "disk", [ROOT_KIND_NFS] = "NFS", [ROOT_KIND_ISCSI] = "iSCSI",
		[ROOT_KIND_LIVE] = "a live image over HTTP",
	};

	return names[kind];
}

const char *boot_plan_root_kind_word(enum root_kind kind)
{
	static const char *const words[] = {
		[ROOT_KIND_DISK] = "disk", [ROOT_KIND_NFS] = "nfs", [ROOT_KIND_ISCSI] = "iscsi",
		[ROOT_KIND_LIVE] = "live",
	};

	return words[kind];
}
