/* fsck: check the root filesystem before it is mounted, with its own checker. */
#ifndef LIFEBOAT_FSCK_H
#define LIFEBOAT_FSCK_H

#include <stddef.h>

#include "fsck/fsck_args.h"
#include "common/fsckcheck.h"

enum fsck_result {
	FSCK_CLEAN,      /* nothing to do, or skipped */
	FSCK_REPAIRED,   /* errors were found and repaired */
	FSCK_FAILED,     /* errors are left, or the checker failed: out says what */
};

/* What the checker's exit status means (fsck(8)'s bits). */
enum fsck_result fsck_status_meaning(int status);

/* Check /dev/DEVNAME (fstype) in preen mode when the image has its checker
 * and mode is not FSCK_MODE_SKIP; FSCK_MODE_FORCE checks a clean
 * filesystem too (fsck/fsck_args.h says which words set which). The
 * checker's output goes to out. Must run after the resume decision: it
 * writes to the device. Returns the result; a missing checker is FSCK_CLEAN. */
enum fsck_result fsck_root(const char *devname, const char *fstype, enum fsck_mode mode,
			   char *out, size_t size);

/* The boot's step: check the root device (of filesystem type) before it
 * is mounted, unless mode skips it, and report a repair on the console.
 * Returns 0, or -EUCLEAN with what failed in why (the checker's output is
 * printed above it) for the rescue shell. */
int fsck_before_mount(enum fsck_mode mode, const char *devname, const char *type,
		      char *why, size_t why_size);

#endif
