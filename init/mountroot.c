/* mountroot: mount the root filesystem at /sysroot. */
#include "init/mountroot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "bootlib/fsmodule.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/timeline.h"
#include "init/mountopts.h"

void mount_root_preload(const char *type)
{
	if (fsmodule_load_background(type) == 0)
		timeline_mark("fsmodule", "%s loading in the background", type);
}

static void load_fs_module(const char *type)
{
	char name[CMDLINE_VALUE_MAX + 4];
	int r = modload_background_join(name, sizeof(name));

	if (r >= 0)
		timeline_mark("fsmodule", "%s loaded in the background (%d modules)", name, r);
	fsmodule_load(type);
}

static int try_mount(const char *src, const char *type, unsigned long flags, const char *data)
{
	load_fs_module(type);
	if (mount(src, SYSROOT, type, flags, data) == 0)
		return 0;
	return -errno;
}

int mount_root(const struct root_args *args, const struct found_dev *dev)
{
	unsigned long flags = args->rw == ROOT_RW_RW ? 0 : MS_RDONLY;
	char data[CMDLINE_VALUE_MAX];
	char src[80];
	const char *type = args->fstype[0] ? args->fstype : dev->info.type;
	int r;

	snprintf(src, sizeof(src), "/dev/%s", dev->devname);
	if (mountopts_parse(args->flags, &flags, data, sizeof(data)) < 0) {
		log_error("rootflags=%s is too long; shorten it", args->flags);
		return -ENAMETOOLONG;
	}
	/* ro/rw on the command line win over rootflags, as in the kernel. */
	if (args->rw == ROOT_RW_RO)
		flags |= MS_RDONLY;
	else if (args->rw == ROOT_RW_RW)
		flags &= ~MS_RDONLY;
	if (!type[0]) {
		log_error("cannot mount %s: no filesystem found on it (blkid sees no type); "
			  "check root= or give rootfstype=", src);
		return -EINVAL;
	}
	r = try_mount(src, type, flags, data);
	if (r < 0) {
		log_error("mounting %s (%s) on %s with options '%s' failed: %s; "
			  "check rootfstype=/rootflags= and that the image has the %s module",
			  src, type, SYSROOT, data, strerror(-r), type);
		return r;
	}
	log_info("mounted %s (%s, %s) on %s", src, type,
		 flags & MS_RDONLY ? "ro" : "rw", SYSROOT);
	return 0;
}
