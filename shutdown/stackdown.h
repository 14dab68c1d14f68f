/* stackdown: take the root's block stack apart from the top: device-mapper
 * devices (LVM volumes, LUKS containers) removed and md arrays stopped,
 * each only once nothing holds it, so a layer goes after the one above it. */
#ifndef LIFEBOAT_SHUTDOWN_STACKDOWN_H
#define LIFEBOAT_SHUTDOWN_STACKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#define STACK_DEV_MAX 64
#define STACK_NAME_MAX 128

enum stack_kind {
	STACK_DM_CRYPT,  /* a LUKS (or plain dm-crypt) container */
	STACK_DM_LVM,    /* an LVM logical volume */
	STACK_DM_OTHER,
	STACK_MD,
};

struct stack_dev {
	char kernel_name[32];          /* dm-3, md127 */
	char name[STACK_NAME_MAX];     /* the dm name (lbcvg-root), or md127 */
	enum stack_kind kind;
	bool held;                     /* something is stacked on it (holders/) */
	bool done;                     /* removed or stopped */
};

struct stack_set {
	size_t len;
	struct stack_dev devs[STACK_DEV_MAX];
};

/* The kind of a device-mapper device from its dm/uuid (CRYPT-..., LVM-...). */
enum stack_kind stackdown_dm_kind(const char *dm_uuid);

/* The next device that can go now: not done and held by nothing.
 * Returns its index, or -1 when none can. */
int stackdown_next(const struct stack_set *set);

/* Read the dm and md devices from sysfs (sys is "/sys"). 0 or -errno. */
int stackdown_scan(const char *sys, struct stack_set *out);

/* Remove every device that can go, top first, rescanning after each
 * success (what held a lower layer is gone then), until none can.
 * Each is logged; returns how many are left (0: the stack is down), or
 * -1 when /sys cannot be read. */
int stackdown_run(void);

#endif
