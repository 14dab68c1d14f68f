/* net_pack: what a network root needs in the image (--net): the NFS client
 * and NIC drivers (gen/kmod/modsets_net.c); the init brings up the rest. */
#include "gen/feature/feature.h"

#include "gen/feature/iscsi_pack.h"
#include "gen/feature/nvmf_pack.h"
#include "gen/gen_report.h"
#include "gen/kmod/modsets_net.h"

/* --net; iSCSI and the SSH server run over the network; a host-only image
 * of a machine whose root is NFS needs it without being asked. */
static bool net_pack_wanted(const struct build_ctx *c)
{
	/* A root bound to Tang needs the network to unlock. */
	return c->opts->net || c->opts->ssh || iscsi_pack_wanted(c) || nvmf_pack_wanted(c) ||
	       (c->host && (c->host->root_nfs || c->host->root_tang));
}

/* A generic image gets the common NICs' drivers, a host-only one this machine's. */
static int net_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	if (c->host && !c->host->nics_listed)
		gen_warn("cannot read /sys/class/net; the image gets no NIC driver of this "
			 "machine: add one with --add-modules");
	return modsets_net_add(k, c->host ? &c->host->nic_drivers : NULL);
}

const struct feature net_pack_feature = {
	.name = "net",
	.wanted = net_pack_wanted,
	.add_modules = net_pack_modules,
};
