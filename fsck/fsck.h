/* fsck: check the root filesystem before it is mounted, with its own checker. */
#ifndef LIFEBOAT_FSCK_H
#define LIFEBOAT_FSCK_H

#include <stddef.h>

#include "init/cmdline.h"

/* The checkers lifeboat runs, by filesystem type (gen/ adds them to images). */
struct fsck_checker {
	const char *fstype;
	const char *path;          /* in the image and on the host */
};
/* The checker for fstype, or NULL: xfs and btrfs have none here (xfs
 * replays its log at mount and xfs_repair -n cannot tell a dirty log from
 * damage; btrfs checks itself), nor have filesystems without one. */
const struct fsck_checker *fsck_checker_find(const char *fstype);

enum fsck_result {
	FSCK_CLEAN,      /* nothing to do, or skipped */
	FSCK_REPAIRED,   /* errors were found and repaired */
	FSCK_FAILED,     /* errors are left, or the checker failed: out says what */
};

/* What the checker's exit status means (fsck(8)'s bits). */
enum fsck_result fsck_status_meaning(int status);

/* Check /dev/DEVNAME (fstype) in preen mode when the image has its checker
 * and enabled is true (rd.fsck=0 and fastboot turn it off). The checker's
 * output goes to out. Must run after the resume decision: it writes to the
 * device. Returns the result; a missing checker is FSCK_CLEAN. */
enum fsck_result fsck_root(const char *devname, const char *fstype, int enabled,
			   char *out, size_t size);

/* The boot's step: check the root device before it is mounted (unless
 * rd.fsck=0 or fastboot), report a repair on the console, and return NULL,
 * or what failed (with the checker's output printed above it) for the
 * rescue shell. */
const char *fsck_before_mount(const struct boot_args *args, const char *devname,
			      const char *fstype);

#endif
