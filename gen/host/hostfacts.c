/* hostfacts: read the build host once for a host-only image. */
#include "gen/host/hostfacts.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/fileread.h"
#include "gen/gen_report.h"
#include "gen/host/nvmfhost.h"

int hostfacts_add_device(struct host_facts *h, const char *root, const char *spec)
{
	char sysfs[PATH_MAX], majmin[64];
	struct stat st;

	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	if (strchr(spec, '=') || spec[0] == '/') {
		char *dev = spec[0] == '/' ? strdup(spec) : blkid_evaluate_tag(spec, NULL, NULL);

		if (!dev || stat(dev, &st) < 0 || !S_ISBLK(st.st_mode)) {
			free(dev);
			return -ENOENT;
		}
		snprintf(majmin, sizeof(majmin), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
		free(dev);
	} else {
		snprintf(majmin, sizeof(majmin), "%s", spec);
	}
	/* A device sysfs cannot follow has no stack to add. */
	return hostonly_scan_device(&h->stack, sysfs, majmin) == -ENOMEM ? -ENOMEM : 0;
}

/* Whether this machine's root filesystem is NFS: a host-only image then
 * needs the network without being asked. */
static bool root_is_nfs(const char *root)
{
	char path[PATH_MAX];
	FILE *f;
	struct mntent *m;
	bool nfs = false;

	snprintf(path, sizeof(path), "%s/proc/mounts", root);
	f = setmntent(path, "re");

	while (f && (m = getmntent(f)))
		if (strcmp(m->mnt_dir, "/") == 0)
			nfs = strncmp(m->mnt_type, "nfs", 3) == 0;
	if (f)
		endmntent(f);
	return nfs;
}

static bool has_iscsi_session(const char *sysfs)
{
	char path[PATH_MAX];
	DIR *d;
	const struct dirent *de;
	bool found = false;

	if (snprintf(path, sizeof(path), "%s/class/iscsi_session", sysfs) >= (int)sizeof(path))
		return false;
	d = opendir(path);
	while (d && !found && (de = readdir(d)))
		found = strncmp(de->d_name, "session", 7) == 0;
	if (d)
		closedir(d);
	return found;
}

/* The module of one network device's driver; for a driver built into the
 * running kernel, its name, which is also the module's in most kernels that
 * have it as a module (an image for another kernel version). "" for a
 * virtual device (lo, bridges, ifb). */
static void nic_driver(const char *net, const char *ifname, char *out, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	out[0] = '\0';
	if (snprintf(link, sizeof(link), "%s/%s/device/driver/module", net, ifname) >= (int)sizeof(link))
		return;
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0) {
		link[strlen(link) - strlen("/module")] = '\0';
		n = readlink(link, target, sizeof(target) - 1);
	}
	if (n <= 0)
		return;
	target[n] = '\0';
	snprintf(out, size, "%s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

static bool uevent_says_vlan(const char *path)
{
	char *text = NULL;
	size_t len;
	bool vlan;

	if (file_read_all(path, 4096, &text, &len) < 0)
		return false;
	vlan = strstr(text, "DEVTYPE=vlan\n") != NULL;
	free(text);
	return vlan;
}

/* The module a virtual interface of the host needs in the image to be
 * made again by vlan=, bond=, bridge=: "" for other kinds. */
static void netdev_module(const char *net, const char *ifname, char *out, size_t size)
{
	static const struct { const char *probe, *module; } kinds[] = {
		{ "bonding", FEATUREMODS_NET_BOND }, { "bridge", FEATUREMODS_NET_BRIDGE },
	};
	char path[PATH_MAX];

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (snprintf(path, sizeof(path), "%s/%s/%s", net, ifname, kinds[i].probe) <
		    (int)sizeof(path) && access(path, F_OK) == 0) {
			snprintf(out, size, "%s", kinds[i].module);
			return;
		}
	}
	if (snprintf(path, sizeof(path), "%s/%s/uevent", net, ifname) < (int)sizeof(path) &&
	    uevent_says_vlan(path))
		snprintf(out, size, "%s", FEATUREMODS_NET_VLAN);
}

/* Not being able to list the NICs is said where they are needed (--net). */
static int nic_drivers_read(struct host_facts *h, const char *sysfs)
{
	char net[PATH_MAX];
	DIR *d;
	const struct dirent *e;
	int r = 0;

	if (snprintf(net, sizeof(net), "%s/class/net", sysfs) >= (int)sizeof(net))
		return 0;
	d = opendir(net);
	if (!d)
		return 0;
	h->nics_listed = true;
	while (r == 0 && (e = readdir(d))) {
		char driver[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		nic_driver(net, e->d_name, driver, sizeof(driver));
		if (!driver[0])
			netdev_module(net, e->d_name, driver, sizeof(driver));
		if (driver[0])
			r = strv_push(&h->nic_drivers, driver);
	}
	closedir(d);
	return r;
}

int hostfacts_read(struct host_facts *h, const char *root)
{
	char sysfs[PATH_MAX], mountinfo[PATH_MAX];
	int r;

	memset(h, 0, sizeof(*h));
	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	snprintf(mountinfo, sizeof(mountinfo), "%s/proc/self/mountinfo", root);
	r = hostonly_scan(&h->stack, sysfs, mountinfo);
	if (r < 0)
		return r;
	h->resume_status = resumehost_detect(root, &h->resume);
	/* The block stack under the resume device (dm-crypt under an
	 * encrypted swap): its containers, arrays and modules. */
	if (h->resume_status == 0 && hostfacts_add_device(h, root, h->resume.spec) == -ENOMEM)
		r = -ENOMEM;
	h->root_nfs = root_is_nfs(root);
	h->iscsi_session = has_iscsi_session(sysfs);
	h->nvmf_tcp = nvmfhost_has_tcp(sysfs);
	h->keyboard_status = kbdhost_read(root, &h->keyboard);
	if (r == 0)
		r = nic_drivers_read(h, sysfs);
	if (r < 0)
		hostfacts_free(h);
	return r;
}

void hostfacts_free(struct host_facts *h)
{
	hostonly_free(&h->stack);
	strv_free(&h->nic_drivers);
}
