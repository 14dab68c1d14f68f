/* target_disk: a filesystem target, "DEVICE[:DIR]" (DEVICE: UUID=, LABEL=,
 * a /dev path; DIR default /var/crash): wait for the device, mount it,
 * save the dump into DIR, unmount. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "bootlib/devwait.h"
#include "bootlib/fsmodule.h"
#include "bootlib/log.h"
#include "kdump/capture.h"
#include "kdump/savedir.h"

#define DUMP_MNT "/run/kdump"
/* The capture kernel has found its disks by the time the first target is
 * tried, but a slow controller may still be probing. */
#define DEVICE_TIMEOUT_SEC 30

static int split_spec(const char *spec, char *dev, size_t dev_size, char *dir, size_t dir_size)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);

	if (len == 0 || len >= dev_size || (colon && colon[1] != '/'))
		return -EINVAL;
	snprintf(dev, dev_size, "%.*s", (int)len, spec);
	snprintf(dir, dir_size, "%s", colon ? colon + 1 : KDUMP_DEFAULT_DIR);
	return 0;
}

static int mount_target(const struct found_dev *dev, const char *spec)
{
	char node[80];

	snprintf(node, sizeof(node), "/dev/%s", dev->devname);
	if (!dev->info.type[0]) {
		log_error("kdump: target %s (%s) has no filesystem libblkid recognises; make one "
			  "(mkfs.ext4) or fix the target", spec, node);
		return -EINVAL;
	}
	fsmodule_load(dev->info.type);
	mkdir(DUMP_MNT, 0700);
	if (mount(node, DUMP_MNT, dev->info.type, MS_NOATIME, NULL) < 0) {
		int r = -errno;

		log_error("kdump: mounting target %s (%s, %s) failed: %s; check the filesystem "
			  "(fsck) or that the image has its driver", spec, node, dev->info.type, strerror(-r));
		return r;
	}
	return 0;
}

int target_disk_save(struct capture *cap, const struct kdump_target *t)
{
	const char *spec = t->where;
	char devspec[256], dir[512], where[400];
	struct dev_spec rs;
	struct found_dev dev;
	int r;

	if (split_spec(spec, devspec, sizeof(devspec), dir, sizeof(dir)) < 0 ||
	    devspec_parse(devspec, &rs) < 0) {
		log_error("kdump: target '%s' names no device; use UUID=...[:/DIR], LABEL=...[:/DIR] "
			  "or /dev/...[:/DIR]", spec);
		return -EINVAL;
	}
	r = devwait_find(&rs, DEVICE_TIMEOUT_SEC, &dev);
	if (r < 0) {
		log_error("kdump: target device %s did not appear within %d s (%s); check the "
			  "target, that the image has the disk's driver and, when the target is in "
			  "a LUKS container, that its TPM2 token, Tang binding or key file opens "
			  "it with nobody typing (see above)", devspec, DEVICE_TIMEOUT_SEC,
			  strerror(-r));
		return r;
	}
	r = mount_target(&dev, spec);
	if (r < 0)
		return r;
	snprintf(where, sizeof(where), "%s (/dev/%s)", devspec, dev.devname);
	r = savedir_save(cap, DUMP_MNT, dir, where);
	if (umount(DUMP_MNT) < 0 && r == 0)
		log_warn("kdump: unmounting %s failed: %s; the dump was synced before", where, strerror(errno));
	return r;
}
