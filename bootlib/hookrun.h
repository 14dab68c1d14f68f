/* hookrun: the image's boot scripts (hooks.d's `script` requests,
 * docs/extending.md), run where the boot reaches their stage.
 *
 * A script of dracut's stage S is LAYOUT_HOOK_SCRIPTS/S/NAME
 * (common/hookspec.h); it runs at the lifeboat stage rd.break=S stops at
 * (bootlib/stage.h: pre-trigger and initqueue at pre-udev, cleanup at
 * pre-pivot; initqueue/settled as initqueue). A lifeboat stage runs its
 * dracut stages in dracut's order, the scripts of each in name order, one
 * at a time, each with the console as its stdio, a fixed environment
 * (NEWROOT, root, LIFEBOAT_STAGE, LIFEBOAT_ROOT_KIND, LIFEBOAT_ROOT_DEVICE,
 * PATH), its own process group and rd.hook.timeout= seconds; its start
 * and its end go to the timeline. Only
 * a regular file of root's, writable by root alone, in a directory of
 * root's, runs: the image is checked again at boot.
 */
#ifndef LIFEBOAT_HOOKRUN_H
#define LIFEBOAT_HOOKRUN_H

#include <stddef.h>

#include "bootlib/hook_args.h"
#include "bootlib/stage.h"

/* What the scripts are told of the boot. */
struct hookrun_boot {
	const struct hook_args *args;
	const char *root;       /* root= as given ("" when none) */
	const char *root_kind;  /* "disk", "nfs" or "iscsi" */
	const char *root_device; /* "/dev/vda2" once the root's device is found, else "" */
	const char *dir;        /* NULL: LAYOUT_HOOK_SCRIPTS (the unit tests give another) */
};

/* Run the scripts of stage from *next on (0: the first). Returns 0 when
 * every one ran and exited with 0. Else -errno: one was refused (-EPERM),
 * could not start, exited with another status (-EIO) or outlived its
 * bound (-ETIMEDOUT, killed with what it started); why then names the
 * script and its stage, what happened and what to do, and *next is the
 * script after it: call again to go on with the rest. */
int hookrun_stage(enum boot_stage stage, const struct hookrun_boot *boot, size_t *next,
		  char *why, size_t size);

/* The lifeboat stage a dracut stage name's scripts run at, or -EINVAL. */
int hookrun_stage_of(const char *dracut_stage);

#endif
