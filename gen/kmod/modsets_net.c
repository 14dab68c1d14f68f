/* modsets_net: NIC drivers and the NFS client for network roots.
 *
 * nfsv3 and nfsv4 are named because the kernel asks for them with
 * request_module(), which the init cannot answer (no modprobe in the image);
 * the init loads them itself. */
#include "gen/kmod/modsets_net.h"

#include "common/featuremods.h"



static const char *const nfs_modules[] = {
	FEATUREMODS_NFS, FEATUREMODS_NFS_V3, FEATUREMODS_NFS_V4, "af_packet", NULL,
};

/* Virtual machines first, then the common wired NICs of PCs and servers. */
static const char *const generic_nics[] = {
	"virtio_net", "e1000", "e1000e", "igb", "igc", "ixgbe", "i40e", "ice",
	"r8169", "tg3", "bnx2", "bnx2x", "bnxt_en", "mlx4_en", "mlx5_core", "be2net",
	"qede", "sfc", "atlantic", "vmxnet3", "hv_netvsc", "xen_netfront", "ena", "gve",
	"8139cp", "8139too", "pcnet32", "ne2k_pci", "forcedeth", "sky2", "atl1c", "alx",
	"r8152", "cdc_ether", "ax88179_178a", "asix", NULL,
};

static int add_list(struct kmods *k, const char *const *names, const char *why)
{
	int r = 0;

	for (size_t i = 0; r == 0 && names[i]; i++)
		r = kmods_add_optional(k, names[i], why);
	return r;
}

/* vlan=, bond=, bridge= (a host-only image gets those the host uses,
 * through host_nics: gen/host/hostfacts.c). */
static const char *const netdev_modules[] = { FEATUREMODS_NETDEVS, NULL };

int modsets_net_add(struct kmods *k, const struct strv *host_nics)
{
	int r = add_list(k, nfs_modules, "NFS root (--net)");

	if (r == 0 && !host_nics)
		r = add_list(k, generic_nics, "network device (generic, --net)");
	if (r == 0 && !host_nics)
		r = add_list(k, netdev_modules, "vlan=, bond=, bridge= (generic, --net)");
	for (size_t i = 0; r == 0 && host_nics && i < host_nics->len; i++)
		r = kmods_add_optional(k, host_nics->items[i], "network device (host-only, --net)");
	return r;
}
