/* fsck: check the root filesystem before it is mounted, with its own checker. */
#ifndef LIFEBOAT_FSCK_H
#define LIFEBOAT_FSCK_H

#include <stddef.h>

#include "fsck/fsck_args.h"
#include "common/fsckcheck.h"
#include "common/layout.h"

enum fsck_result {
	FSCK_CLEAN,      /* nothing to do, or skipped */
	FSCK_REPAIRED,   /* errors were found and repaired */
	FSCK_FAILED,     /* errors are left, or the checker failed: out says what */
	FSCK_SKIPPED,    /* not checked: the mode skips it, or the image has no checker */
};

/* What the checker's exit status means (fsck(8)'s bits). */
enum fsck_result fsck_status_meaning(int status);

/* Check /dev/DEVNAME (fstype) in preen mode when the image has its checker
 * and mode is not FSCK_MODE_SKIP; FSCK_MODE_FORCE checks a clean
 * filesystem too (fsck/fsck_args.h says which words set which). The
 * checker's output goes to out. Must run after the resume decision: it
 * writes to the device. Returns the result; a missing checker is FSCK_SKIPPED. */
enum fsck_result fsck_root(const char *devname, const char *fstype, enum fsck_mode mode,
			   char *out, size_t size);

/* The boot's step: check the root device (of filesystem type) before it
 * is mounted, unless mode skips it, and report a repair on the console.
 * Returns 1 when it was checked (clean, or repaired), 0 when it was not
 * (skipped, read-only, no checker in the image), or -EUCLEAN with what
 * failed in why (the checker's output is printed above it) for the rescue
 * shell. */
int fsck_before_mount(enum fsck_mode mode, const char *devname, const char *type,
		      char *why, size_t why_size);
/* Leave the stamp that says the root was checked (path: FSCK_ROOT_STAMP),
 * for the real root's systemd: Debian's systemd-fsck-root.service does not
 * check the root again when it exists (ConditionPathExists=!, the contract
 * initramfs-tools keeps). Returns 0 or -errno. */
#define FSCK_ROOT_STAMP LAYOUT_EXITRD_DIR "/fsck-root"
/* The same for a /usr of its own (init/usrmount.c): Debian's
 * systemd-fstab-generator then adds no systemd-fsck@ for /usr. */
#define FSCK_USR_STAMP LAYOUT_EXITRD_DIR "/fsck-usr"
int fsck_stamp_leave(const char *path);

#endif
