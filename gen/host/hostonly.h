/* hostonly: what the build host needs to boot, read from sysfs and mountinfo. */
#ifndef LIFEBOAT_HOSTONLY_H
#define LIFEBOAT_HOSTONLY_H

#include <stdbool.h>

#include "common/strv.h"

#define HOST_STACK_MAX 8

/* A LUKS container under the root (or resume device). */
struct host_luks {
	char uuid[40];       /* the LUKS UUID, 8-4-4-4-12, from the dm uuid */
	char dev[256];       /* the container's block device, e.g. "sda3" */
	char dm_name[128];   /* its mapping's name now, e.g. "sda3_crypt" */
};

/* An md array under the root (or resume device). */
struct host_md {
	char dev[256];       /* "md0" */
	char member[256];    /* one of its members, e.g. "sda1" (libblkid reads the array UUID there) */
};

struct host_scan {
	struct strv modaliases;    /* every device's modalias, once each */
	struct strv root_modules;  /* drivers on the root device's path and its block stack */
	struct strv root_modaliases; /* modaliases of the devices on that path */
	char *root_fstype;         /* e.g. "ext4"; NULL when "/" was not found */
	bool root_seen;            /* the root filesystem sits on a block device we could follow */
	struct host_luks luks[HOST_STACK_MAX];  /* the stack's containers, once each */
	size_t n_luks;
	struct host_md md[HOST_STACK_MAX];      /* the stack's arrays, once each */
	size_t n_md;
	bool lvm;                  /* an LVM logical volume is in the stack */
	struct strv lvm_vgs;       /* the volume groups of its logical volumes */
};

/* Scan sysfs (normally "/sys") and mountinfo (normally
 * "/proc/self/mountinfo"). A root that is not on a block device (overlay,
 * tmpfs in a container) is not an error: root_seen stays false. Returns 0
 * or -errno for what made the scan itself impossible (reported). */
int hostonly_scan(struct host_scan *h, const char *sysfs, const char *mountinfo);
/* Add the block stack under another device (MAJ:MIN), the resume device:
 * its modules and its containers and arrays. Returns 0 or -errno. */
int hostonly_scan_device(struct host_scan *h, const char *sysfs, const char *majmin);
void hostonly_free(struct host_scan *h);

#endif
