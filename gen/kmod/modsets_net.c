/* modsets_net: NIC drivers and the NFS client for network roots.
 *
 * nfsv3 and nfsv4 are named because the kernel asks for them with
 * request_module(), which the init cannot answer (no modprobe in the image);
 * the init loads them itself. */
#include "gen/kmod/modsets_net.h"

#include <dirent.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen_report.h"

static const char *const nfs_modules[] = {
	"sunrpc", "nfs", "nfsv3", "nfsv4", "af_packet", NULL,
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

/* The driver bound to each network device: /sys/class/net/IF/device/driver/module. */
static int host_nics_add(struct kmods *k)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int r = 0;

	if (!d) {
		gen_warn("cannot read /sys/class/net; the image gets no NIC driver of this "
			 "machine: add one with --add-modules");
		return 0;
	}
	while (r == 0 && (e = readdir(d))) {
		char link[PATH_MAX], target[PATH_MAX];
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		/* The driver's module; for a driver built into the running kernel,
		 * its name, which is also the module's in most kernels that have it
		 * as a module (an image for another kernel version). */
		snprintf(link, sizeof(link), "/sys/class/net/%s/device/driver/module", e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0) {
			snprintf(link, sizeof(link), "/sys/class/net/%s/device/driver", e->d_name);
			n = readlink(link, target, sizeof(target) - 1);
		}
		if (n <= 0)
			continue;   /* virtual: lo, bridges, ifb */
		target[n] = '\0';
		r = kmods_add_optional(k, strrchr(target, '/') ? strrchr(target, '/') + 1 : target,
				       "network device (host-only, --net)");
	}
	closedir(d);
	return r;
}

int modsets_net_add(struct kmods *k, bool generic)
{
	int r = add_list(k, nfs_modules, "NFS root (--net)");

	if (r == 0)
		r = generic ? add_list(k, generic_nics, "network device (generic, --net)") :
			      host_nics_add(k);
	return r;
}

bool modsets_net_host_root(void)
{
	FILE *f = setmntent("/proc/mounts", "re");
	struct mntent *m;
	bool nfs = false;

	while (f && (m = getmntent(f)))
		if (strcmp(m->mnt_dir, "/") == 0)
			nfs = strncmp(m->mnt_type, "nfs", 3) == 0;
	if (f)
		endmntent(f);
	return nfs;
}
