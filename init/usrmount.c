/* usrmount: find, check and mount the real root's /usr of its own.
 *
 * As initramfs-tools (scripts/init's mountfs /usr) and dracut (its
 * usrmount module) do: the first fstab entry whose mount point is /usr,
 * noauto or not (the system cannot run without it), checked when its pass
 * number is not 0, mounted read-only when the root is; the real root's
 * systemd-remount-fs remounts it as fstab says. */
#include "init/usrmount.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "bootlib/blockattr.h"
#include "bootlib/devwait.h"
#include "bootlib/fsmodule.h"
#include "bootlib/fstab.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/sysroot.h"
#include "bootlib/timeline.h"
#include "fsck/fsck.h"
#include "init/mountopts.h"

#define USR_DIR SYSROOT "/usr"
#define USR_FSTAB SYSROOT "/etc/fstab"

/* What is mounted on /usr, and where it was said (for the messages). */
struct usr_source {
	char spec[FSTAB_FIELD_MAX];
	char type[FSTAB_FIELD_MAX];
	char opts[FSTAB_OPTS_MAX];
	bool check;
	const char *said;
};

static int usr_failed(char *why, size_t size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int usr_failed(char *why, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return err;
}

/* A mount point lies on another device than its parent: by an earlier
 * try, or by hand in the rescue shell. */
static bool usr_is_mounted(void)
{
	struct stat root, usr;

	return stat(SYSROOT, &root) == 0 && stat(USR_DIR, &usr) == 0 && root.st_dev != usr.st_dev;
}

/* systemd-fstab-generator(8)'s words: any one of them names /usr on the
 * command line, and fstab's entry is not read; what is not given is the
 * root's (root=, rootfstype=, rootflags=). Checked, as systemd checks a
 * /usr given there. */
static bool usr_from_cmdline(const struct root_args *root, struct usr_source *u)
{
	if (!root->usr[0] && !root->usr_fstype[0] && !root->usr_flags[0])
		return false;
	snprintf(u->spec, sizeof(u->spec), "%s", root->usr[0] ? root->usr : root->root);
	snprintf(u->type, sizeof(u->type), "%s", root->usr_fstype[0] ? root->usr_fstype : root->fstype);
	snprintf(u->opts, sizeof(u->opts), "%s", root->usr_flags[0] ? root->usr_flags : root->flags);
	u->check = true;
	u->said = "mount.usr=";
	return true;
}

/* Returns 1 when the real root's fstab has a /usr entry, 0 when not (or
 * when it cannot be read: a system without a /usr of its own boots as
 * before), or -errno with why. */
static int usr_from_fstab(struct usr_source *u, char *why, size_t size)
{
	struct fstab_entry e;
	int r = fstab_find_file(USR_FSTAB, "/usr", &e);

	if (r == -ENAMETOOLONG)
		return usr_failed(why, size, r, "the /usr entry of the real root's /etc/fstab has a "
				  "field too long to be read; shorten it");
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		log_warn("reading the real root's /etc/fstab failed (%s): a /usr of its own is "
			 "not mounted", strerror(-r));
		return 0;
	}
	snprintf(u->spec, sizeof(u->spec), "%s", e.spec);
	snprintf(u->type, sizeof(u->type), "%s", strcmp(e.type, "auto") == 0 ? "" : e.type);
	snprintf(u->opts, sizeof(u->opts), "%s", e.opts);
	u->check = e.passno != 0;
	u->said = "the real root's /etc/fstab";
	return 1;
}

/* The device u names. Returns 0, 1 when it is no block device (left to
 * the real root's init), or -errno with why. */
static int usr_spec(const struct usr_source *u, bool cmdline, struct dev_spec *spec,
		    char *why, size_t size)
{
	int r = cmdline ? devspec_parse(u->spec, spec) : fstab_spec_parse(u->spec, spec);

	if (r == -ENOTBLK) {
		log_info("/usr (%s in %s) is no block device: the real root's init mounts it",
			 u->spec, u->said);
		return 1;
	}
	if (r == -EOPNOTSUPP)
		return usr_failed(why, size, r, "/usr is %s in %s: lifeboat has no udev to resolve "
				  "that link; name it by UUID=, LABEL=, PARTUUID= or /dev/...",
				  u->spec, u->said);
	if (r < 0)
		return usr_failed(why, size, -EINVAL, "/usr is '%s' in %s, which names no device; use "
				  "UUID=, LABEL=, PARTUUID=, PARTLABEL= or /dev/...", u->spec, u->said);
	return 0;
}

static int usr_wait(const struct usr_source *u, const struct dev_spec *spec,
		    unsigned int timeout_sec, struct found_dev *dev, char *why, size_t size)
{
	int r = devwait_find(spec, timeout_sec, dev);

	if (r == -ETIMEDOUT)
		return usr_failed(why, size, r, "the /usr device %s (from %s) did not appear within "
				  "rd.timeout; check it against the devices below", u->spec, u->said);
	if (r < 0)
		return usr_failed(why, size, r, "waiting for the /usr device %s failed: %s", u->spec,
				  strerror(-r));
	timeline_mark("usrdev", "/dev/%s", dev->devname);
	return 0;
}

/* /usr on the root's own device (a btrfs subvolume, mount.usrflags=
 * alone): it was the root's to check, and it is mounted now. */
static bool usr_on_root_device(const char *devname)
{
	struct stat root;
	unsigned int major_nr, minor_nr;

	return stat(SYSROOT, &root) == 0 && blockattr_devnum(devname, &major_nr, &minor_nr) == 0 &&
	       major(root.st_dev) == major_nr && minor(root.st_dev) == minor_nr;
}

/* The root's check, with the root's words (rd.fsck=0, fastboot,
 * rd.skipfsck, fsck.mode=): a /usr checked here is not checked again
 * by the real root's systemd (its fstab-generator reads the stamp). */
static int usr_check(enum fsck_mode mode, const struct usr_source *u, const char *devname,
		     const char *type, char *why, size_t size)
{
	char text[512];
	int r;

	if (!u->check || usr_on_root_device(devname))
		return 0;
	r = fsck_before_mount(mode, devname, type, text, sizeof(text));
	if (r < 0)
		return usr_failed(why, size, r, "/usr: %s", text);
	if (r > 0 && fsck_stamp_leave(FSCK_USR_STAMP) < 0)
		log_warn("writing %s failed: the real root's systemd checks /dev/%s again",
			 FSCK_USR_STAMP, devname);
	return 0;
}

static void usr_load_module(const char *type)
{
	char name[64];

	/* The root's module may still be loading in the background. */
	modload_background_join(name, sizeof(name));
	fsmodule_load(type);
}

static int usr_mount_dev(const struct usr_source *u, const char *devname, const char *type,
			 char *why, size_t size)
{
	char opts[FSTAB_OPTS_MAX], data[FSTAB_OPTS_MAX], src[80];
	unsigned long flags = 0;
	struct statvfs root;

	if (fstab_options_kernel(u->opts, opts, sizeof(opts)) < 0 ||
	    mountopts_parse(opts, &flags, data, sizeof(data)) < 0)
		return usr_failed(why, size, -ENAMETOOLONG, "the options of /usr in %s are too long",
				  u->said);
	if (statvfs(SYSROOT, &root) == 0 && (root.f_flag & ST_RDONLY))
		flags |= MS_RDONLY;
	snprintf(src, sizeof(src), "/dev/%s", devname);
	usr_load_module(type);
	if (mount(src, USR_DIR, type, flags, data) < 0) {
		int r = -errno;

		return usr_failed(why, size, r, "mounting /usr, %s (%s) from %s, on %s with options "
				  "'%s' failed: %s; check its entry and that the image has the %s module",
				  src, type, u->said, USR_DIR, data, strerror(-r), type);
	}
	timeline_mark("usr", "/dev/%s %s", devname, type);
	log_info("mounted %s (%s, %s) on %s", src, type, flags & MS_RDONLY ? "ro" : "rw", USR_DIR);
	return 0;
}

int usr_mount(const struct root_args *root, enum fsck_mode fsck, char *why, size_t size)
{
	struct usr_source u = { .check = false };
	struct dev_spec spec;
	struct found_dev dev;
	const char *type;
	bool cmdline = usr_from_cmdline(root, &u);
	int r;

	if (usr_is_mounted())
		return 0;
	if (!cmdline && (r = usr_from_fstab(&u, why, size)) <= 0)
		return r;
	r = usr_spec(&u, cmdline, &spec, why, size);
	if (r == 0)
		r = usr_wait(&u, &spec, root->timeout_sec, &dev, why, size);
	if (r != 0)
		return r < 0 ? r : 0;
	type = u.type[0] ? u.type : dev.info.type;
	if (!type[0])
		return usr_failed(why, size, -EINVAL, "no filesystem found on /dev/%s, the /usr of %s; "
				  "check the entry, or give its type", dev.devname, u.said);
	r = usr_check(fsck, &u, dev.devname, type, why, size);
	return r < 0 ? r : usr_mount_dev(&u, dev.devname, type, why, size);
}
