/* hostonly: what the build host needs to boot, read from sysfs and mountinfo.
 *
 * Three sources: every device's modalias under SYSFS/devices (the caller
 * resolves them against the target kernel, which may not be the running
 * one); the drivers bound to the root device and each of its sysfs
 * ancestors (controller, bus); and the block stack under root (dm, md and
 * their slaves, followed down to the disks), whose LUKS containers and md
 * arrays are recorded for the image's crypttab and mdadm.conf.
 */
#include "gen/host/hostonly.h"

#include "common/dmname.h"
#include "common/fileread.h"
#include "common/modtab.h"
#include "common/mountinfo.h"
#include "gen/gen_report.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* sysfs trees are shallow; anything deeper is a loop we must not follow. */
#define HOST_MAX_DEPTH 40
#define HOST_MAX_STACK 8

/* dm targets by the uuid prefix their user-space tools set. */
static const struct {
	const char *uuid_prefix;
	const char *const modules[7];
} dm_kinds[] = {
	{ "CRYPT-", { "dm_crypt", "aesni_intel", "xts", "essiv", "sha256_generic",
		      "algif_skcipher", NULL } },
	{ "LVM-", { "dm_snapshot", "dm_mirror", "dm_thin_pool", "dm_raid", NULL } },
	{ "mpath-", { "dm_multipath", NULL } },
	{ "VERITY-", { "dm_verity", NULL } },
	{ "INTEGRITY-", { "dm_integrity", NULL } },
};

/* md personalities by /sys/block/mdX/md/level. */
static const struct {
	const char *level;
	const char *module;
} md_levels[] = {
	{ "linear", "linear" }, { "raid0", "raid0" }, { "raid1", "raid1" },
	{ "raid4", "raid456" }, { "raid5", "raid456" }, { "raid6", "raid456" },
	{ "raid10", "raid10" },
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static int modaliases_walk(struct strv *out, const char *dir, int depth)
{
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (depth > HOST_MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;   /* devices come and go; an unreadable one has nothing for us */
	while (r == 0 && (e = readdir(d))) {
		char path[PATH_MAX], alias[4096];

		if (e->d_name[0] == '.' || e->d_type == DT_LNK)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		if (e->d_type == DT_DIR)
			r = modaliases_walk(out, path, depth + 1);
		else if (strcmp(e->d_name, "modalias") == 0 &&
			 file_read_line(path, alias, sizeof(alias)) == 0 && alias[0] &&
			 modtab_modalias_wanted(alias))
			r = strv_push_unique(out, alias);
	}
	closedir(d);
	return r;
}

/* The module of the driver bound at dir and at each ancestor up to
 * SYSFS/devices (the disk's driver, its controller's, the bus's), and their
 * modaliases: a driver built into the running kernel has no module link, yet
 * the target kernel may have it as a module. */
static int drivers_collect(struct host_scan *h, const char *sysfs, const char *dir)
{
	char path[PATH_MAX], link[PATH_MAX], top[PATH_MAX];
	size_t top_len;

	snprintf(top, sizeof(top), "%s/devices", sysfs);
	top_len = strlen(top);
	snprintf(path, sizeof(path), "%s", dir);
	while (strncmp(path, top, top_len) == 0 && strlen(path) > top_len) {
		char probe[PATH_MAX + 16], alias[4096];
		ssize_t n;
		int r = 0;

		snprintf(probe, sizeof(probe), "%s/driver/module", path);
		n = readlink(probe, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			r = strv_push_unique(&h->root_modules,
					     strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		}
		snprintf(probe, sizeof(probe), "%s/modalias", path);
		if (r == 0 && file_read_line(probe, alias, sizeof(alias)) == 0 && alias[0])
			r = strv_push_unique(&h->root_modaliases, alias);
		if (r < 0)
			return r;
		*strrchr(path, '/') = '\0';
	}
	return 0;
}

static int push_all(struct strv *out, const char *const *names)
{
	for (size_t i = 0; names[i]; i++) {
		int r = strv_push_unique(out, names[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

/* dm and md devices: the modules for their kind. */
static int stack_kind_collect(struct strv *out, const char *dir)
{
	char path[PATH_MAX + 16], value[256];
	int r = 0;

	snprintf(path, sizeof(path), "%s/dm/uuid", dir);
	if (file_read_line(path, value, sizeof(value)) == 0) {
		r = strv_push_unique(out, "dm_mod");
		for (size_t i = 0; r == 0 && i < N_ELEMS(dm_kinds); i++)
			if (strncmp(value, dm_kinds[i].uuid_prefix, strlen(dm_kinds[i].uuid_prefix)) == 0)
				r = push_all(out, dm_kinds[i].modules);
	}
	snprintf(path, sizeof(path), "%s/md/level", dir);
	if (r == 0 && file_read_line(path, value, sizeof(value)) == 0) {
		r = strv_push_unique(out, "md_mod");
		for (size_t i = 0; r == 0 && i < N_ELEMS(md_levels); i++)
			if (strcmp(value, md_levels[i].level) == 0)
				r = strv_push_unique(out, md_levels[i].module);
	}
	return r;
}

/* "CRYPT-LUKS2-<32 hex>-<name>" (cryptsetup's dm uuid): the LUKS UUID. */
static bool luks_uuid_from_dm(const char *dm_uuid, char *uuid, size_t size)
{
	const char *hex;

	if (strncmp(dm_uuid, "CRYPT-LUKS", 10) != 0 || !(hex = strchr(dm_uuid + 10, '-')))
		return false;
	hex++;
	if (strlen(hex) < 32 || strspn(hex, "0123456789abcdefABCDEF") < 32)
		return false;
	snprintf(uuid, size, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
	return true;
}

/* The first entry of dir/slaves: the device under a dm or md device. */
static void first_slave(const char *dir, char *out, size_t size)
{
	char path[PATH_MAX + 16];
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(out, size, "%s", e->d_name);
			break;
		}
	closedir(d);
}

static void record_luks(struct host_scan *h, const char *dir, const char *uuid)
{
	char path[PATH_MAX + 16];
	struct host_luks *l = &h->luks[h->n_luks];

	for (size_t i = 0; i < h->n_luks; i++)
		if (strcmp(h->luks[i].uuid, uuid) == 0)
			return;
	if (h->n_luks >= HOST_STACK_MAX)
		return;
	memset(l, 0, sizeof(*l));
	snprintf(l->uuid, sizeof(l->uuid), "%s", uuid);
	first_slave(dir, l->dev, sizeof(l->dev));
	snprintf(path, sizeof(path), "%s/dm/name", dir);
	file_read_line(path, l->dm_name, sizeof(l->dm_name));
	h->n_luks++;
}

static void record_md(struct host_scan *h, const char *dir)
{
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	struct host_md *m = &h->md[h->n_md];

	for (size_t i = 0; i < h->n_md; i++)
		if (strcmp(h->md[i].dev, name) == 0)
			return;
	if (h->n_md >= HOST_STACK_MAX)
		return;
	snprintf(m->dev, sizeof(m->dev), "%s", name);
	first_slave(dir, m->member, sizeof(m->member));
	h->n_md++;
}

/* A logical volume's volume group, from its mapping's name. */
static int record_lvm(struct host_scan *h, const char *dir)
{
	char path[PATH_MAX + 16], name[256], vg[256];

	h->lvm = true;
	snprintf(path, sizeof(path), "%s/dm/name", dir);
	if (file_read_line(path, name, sizeof(name)) < 0 || dmname_lvm_vg(name, vg, sizeof(vg)) < 0)
		return 0;
	return strv_push_unique(&h->lvm_vgs, vg);
}

/* What the image's configuration needs of a dm or md device (gen/host/stackconf.c). */
static int stack_record(struct host_scan *h, const char *dir)
{
	char path[PATH_MAX + 16], value[256];
	int r = 0;

	snprintf(path, sizeof(path), "%s/dm/uuid", dir);
	if (file_read_line(path, value, sizeof(value)) == 0) {
		char uuid[40];

		if (luks_uuid_from_dm(value, uuid, sizeof(uuid)))
			record_luks(h, dir, uuid);
		if (strncmp(value, "LVM-", 4) == 0)
			r = record_lvm(h, dir);
	}
	snprintf(path, sizeof(path), "%s/md/level", dir);
	if (file_read_line(path, value, sizeof(value)) == 0)
		record_md(h, dir);
	return r;
}

static int blockdev_collect(struct host_scan *h, const char *sysfs, const char *majmin, int depth);

/* Follow the entries of dir/slaves down to the devices a dm or md device is built on. */
static int slaves_collect(struct host_scan *h, const char *sysfs, const char *dir, int depth)
{
	char path[PATH_MAX + 16];
	struct dirent *e;
	DIR *d;
	int r = 0;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while (r == 0 && (e = readdir(d))) {
		char dev[PATH_MAX + 300], majmin[64];

		if (e->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "%s/slaves/%s/dev", dir, e->d_name);
		if (file_read_line(dev, majmin, sizeof(majmin)) == 0)
			r = blockdev_collect(h, sysfs, majmin, depth + 1);
	}
	closedir(d);
	return r;
}

static int blockdev_collect(struct host_scan *h, const char *sysfs, const char *majmin, int depth)
{
	char link[PATH_MAX + 64], real[PATH_MAX], disk[PATH_MAX + 16];
	int r;

	if (depth > HOST_MAX_STACK)
		return 0;
	snprintf(link, sizeof(link), "%s/dev/block/%s", sysfs, majmin);
	if (!realpath(link, real))
		return -errno;
	r = drivers_collect(h, sysfs, real);
	if (r == 0)
		r = stack_record(h, real);
	if (r == 0)
		r = stack_kind_collect(&h->root_modules, real);
	if (r == 0)
		r = slaves_collect(h, sysfs, real, depth);
	/* A partition's dm, md and slaves entries are on its whole disk. */
	snprintf(disk, sizeof(disk), "%s/partition", real);
	if (r == 0 && access(disk, F_OK) == 0) {
		*strrchr(real, '/') = '\0';
		r = stack_record(h, real);
		if (r == 0)
			r = stack_kind_collect(&h->root_modules, real);
		if (r == 0)
			r = slaves_collect(h, sysfs, real, depth);
	}
	return r;
}

struct root_mount {
	char majmin[64];
	char fstype[64];
	char source[256];
	bool found;
};

/* Keeps the last mount on "/" (the one visible). */
static int root_mount_keep(const struct mountinfo_entry *m, void *ctx)
{
	struct root_mount *rm = ctx;

	if (strcmp(m->path, "/") != 0)
		return 0;
	snprintf(rm->majmin, sizeof(rm->majmin), "%u:%u", m->major, m->minor);
	snprintf(rm->fstype, sizeof(rm->fstype), "%s", m->fstype);
	snprintf(rm->source, sizeof(rm->source), "%s", m->source);
	rm->found = true;
	return 0;
}

static int root_mount_find(const char *mountinfo, struct root_mount *rm)
{
	int r;

	rm->found = false;
	r = mountinfo_walk_file(mountinfo, root_mount_keep, rm);
	if (r < 0)
		return r;
	return rm->found ? 0 : -ENOENT;
}

/* The root's block device as MAJ:MIN, or false. Filesystems such as btrfs
 * report an anonymous device (major 0): then the mount source names it. */
static bool root_device(const struct root_mount *rm, char *majmin, size_t size)
{
	struct stat st;

	if (strncmp(rm->majmin, "0:", 2) != 0) {
		snprintf(majmin, size, "%s", rm->majmin);
		return true;
	}
	if (strncmp(rm->source, "/dev/", 5) == 0 && stat(rm->source, &st) == 0 &&
	    S_ISBLK(st.st_mode)) {
		snprintf(majmin, size, "%u:%u", major(st.st_rdev), minor(st.st_rdev));
		return true;
	}
	return false;
}

static int root_scan(struct host_scan *h, const char *sysfs, const char *mountinfo)
{
	struct root_mount rm;
	char majmin[64];
	int r = root_mount_find(mountinfo, &rm);

	if (r < 0)
		return 0;   /* no "/" at all: root_seen stays false, the caller falls back */
	h->root_fstype = strdup(rm.fstype);
	if (!h->root_fstype)
		return -ENOMEM;
	if (!root_device(&rm, majmin, sizeof(majmin)))
		return 0;
	r = blockdev_collect(h, sysfs, majmin, 0);
	if (r == -ENOMEM)
		return r;
	h->root_seen = r == 0;
	return 0;
}

int hostonly_scan(struct host_scan *h, const char *sysfs, const char *mountinfo)
{
	char devices[PATH_MAX];
	int r;

	memset(h, 0, sizeof(*h));
	snprintf(devices, sizeof(devices), "%s/devices", sysfs);
	if (access(devices, R_OK) < 0) {
		r = -errno;
		gen_error("host-only: cannot read %s: %s; mount sysfs, or build a generic image "
			  "(without --host-only)", devices, strerror(-r));
		return r;
	}
	r = modaliases_walk(&h->modaliases, devices, 0);
	if (r == 0)
		r = root_scan(h, sysfs, mountinfo);
	if (r < 0) {
		gen_error("host-only: scanning %s: %s", sysfs, strerror(-r));
		hostonly_free(h);
	}
	return r;
}

int hostonly_scan_device(struct host_scan *h, const char *sysfs, const char *majmin)
{
	return blockdev_collect(h, sysfs, majmin, 0);
}

void hostonly_free(struct host_scan *h)
{
	strv_free(&h->modaliases);
	strv_free(&h->root_modules);
	strv_free(&h->root_modaliases);
	free(h->root_fstype);
	h->root_fstype = NULL;
	h->root_seen = false;
	strv_free(&h->lvm_vgs);
	h->n_luks = h->n_md = 0;
	h->lvm = false;
}
