/* stackdown: take the root's block stack apart from the top: device-mapper
 * devices (LVM volumes, LUKS containers) removed and md arrays stopped,
 * each only once nothing holds it, so a layer goes after the one above it. */
#ifndef LIFEBOAT_SHUTDOWN_STACKDOWN_H
#define LIFEBOAT_SHUTDOWN_STACKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#define STACKDOWN_DEV_MAX 64
#define STACKDOWN_NAME_MAX 128

enum stackdown_kind {
	STACKDOWN_CRYPT,  /* a LUKS (or plain dm-crypt) container */
	STACKDOWN_LVM,    /* an LVM logical volume */
	STACKDOWN_DM_OTHER,
	STACKDOWN_MD,
	STACKDOWN_MPATH,  /* a dm-multipath map (mpath-WWID); its partitions are DM_OTHER */
};

struct stackdown_dev {
	char kernel_name[32];          /* dm-3, md127 */
	char name[STACKDOWN_NAME_MAX];     /* the dm name (lbcvg-root), or md127 */
	enum stackdown_kind kind;
	bool held;                     /* something is stacked on it (holders/) */
	bool done;                     /* removed or stopped */
};

struct stackdown_set {
	size_t len;
	struct stackdown_dev devs[STACKDOWN_DEV_MAX];
};

/* The kind of a device-mapper device from its dm/uuid (CRYPT-..., LVM-..., mpath-...). */
enum stackdown_kind stackdown_dm_kind(const char *dm_uuid);

/* The next device that can go now: not done and held by nothing.
 * Returns its index, or -1 when none can. */
int stackdown_next(const struct stackdown_set *set);

/* The DM_TARGET_MSG request that sends message to sector 0 of the dm
 * device name (a struct dm_ioctl and its struct dm_target_msg) into buf.
 * Returns its length, or 0 when it does not fit in size. */
size_t stackdown_dm_message_pack(void *buf, size_t size, const char *name, const char *message);

/* Read the dm and md devices from sysfs (sys is "/sys"). 0 or -errno. */
int stackdown_scan(const char *sys, struct stackdown_set *out);

/* Remove every device that can go, top first, rescanning after each
 * success (what held a lower layer is gone then), until none can.
 * Each is logged; returns how many are left (0: the stack is down), or
 * -1 when /sys cannot be read. */
int stackdown_run(void);

#endif
