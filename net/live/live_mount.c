/* live_mount: loop device, probe, read-only mount, tmpfs, overlay. */
#include "net/live/live_mount.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/fsmodule.h"
#include "bootlib/modload.h"
#include "bootlib/sysroot.h"
#include "bootlib/timeline.h"
#include "common/featuremods.h"
#include "common/layout.h"
#include "net/live/live_loop.h"

static int made_dir(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
}

static int step_failed(char *why, size_t size, int err, const char *step, const char *what)
{
	snprintf(why, size, "%s %s failed: %s", step, what, strerror(-err));
	return err;
}

/* The image's filesystem, read-only at LAYOUT_LIVE_LOWER. */
static int mount_lower(const char *image, char *why, size_t size)
{
	struct blk_info info;
	char dev[32], path[48];
	int fd = live_loop_attach(image, dev, sizeof(dev)), r;

	if (fd < 0)
		return step_failed(why, size, fd, "setting up a loop device for", image);
	r = blkprobe_dev(dev, &info);
	if (r == 0 && strcmp(info.type, "squashfs") != 0 && strcmp(info.type, "erofs") != 0) {
		snprintf(why, size, "the image is %s%s, not squashfs or erofs: make it with mksquashfs "
			 "or mkfs.erofs", info.type[0] ? "of type " : "of no type blkid knows", info.type);
		close(fd);
		return -EMEDIUMTYPE;
	}
	if (r < 0) {
		close(fd);
		return step_failed(why, size, r, "probing the image on", dev);
	}
	fsmodule_load(info.type);
	snprintf(path, sizeof(path), "/dev/%s", dev);
	r = made_dir(LAYOUT_LIVE_LOWER);
	if (r == 0 && mount(path, LAYOUT_LIVE_LOWER, info.type, MS_RDONLY, NULL) < 0)
		r = -errno;
	close(fd);   /* the mount holds the device; autoclear detaches it after */
	if (r < 0)
		return step_failed(why, size, r, "mounting the image read-only at", LAYOUT_LIVE_LOWER);
	timeline_mark("livemount", "/dev/%s %s", dev, info.type);
	return 0;
}

/* The writable layer: a tmpfs with the overlay's upper and work dirs. */
static int mount_rw(const char *tmpfs_size, char *why, size_t size)
{
	char opts[320];
	int r = made_dir(LAYOUT_LIVE_RW);

	snprintf(opts, sizeof(opts), "mode=0755%s%s", tmpfs_size[0] ? ",size=" : "", tmpfs_size);
	if (r == 0 && mount("tmpfs", LAYOUT_LIVE_RW, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		r = -errno;
	if (r == 0)
		r = made_dir(LAYOUT_LIVE_RW "/upper");
	if (r == 0)
		r = made_dir(LAYOUT_LIVE_RW "/work");
	return r < 0 ? step_failed(why, size, r, "making the writable layer (tmpfs) at", LAYOUT_LIVE_RW) : 0;
}

int live_mount(const char *image, const char *tmpfs_size, char *why, size_t why_size)
{
	static const char *const mods[] = { FEATUREMODS_LIVE };
	const char *opts = "lowerdir=" LAYOUT_LIVE_LOWER ",upperdir=" LAYOUT_LIVE_RW "/upper,"
			   "workdir=" LAYOUT_LIVE_RW "/work";
	int r;

	/* Built in or loaded: a module that is missing shows at its step. */
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		modload_name(mods[i]);
	r = mount_lower(image, why, why_size);
	if (r == 0)
		r = mount_rw(tmpfs_size, why, why_size);
	if (r == 0 && mount("overlay", SYSROOT, "overlay", 0, opts) < 0)
		r = step_failed(why, why_size, -errno, "mounting the overlay (the image under a tmpfs) at", SYSROOT);
	return r;
}
