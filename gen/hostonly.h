/* hostonly: what the build host needs to boot, read from sysfs and mountinfo. */
#ifndef LIFEBOAT_HOSTONLY_H
#define LIFEBOAT_HOSTONLY_H

#include <stdbool.h>

#include "strv.h"

struct host_scan {
	struct strv modaliases;    /* every device's modalias, once each */
	struct strv root_modules;  /* drivers on the root device's path and its block stack */
	struct strv root_modaliases; /* modaliases of the devices on that path */
	char *root_fstype;         /* e.g. "ext4"; NULL when "/" was not found */
	bool root_seen;            /* the root filesystem sits on a block device we could follow */
};

/* Scan sysfs (normally "/sys") and mountinfo (normally
 * "/proc/self/mountinfo"). A root that is not on a block device (overlay,
 * tmpfs in a container) is not an error: root_seen stays false. Returns 0
 * or -errno for what made the scan itself impossible (reported). */
int hostonly_scan(struct host_scan *h, const char *sysfs, const char *mountinfo);
void hostonly_free(struct host_scan *h);

#endif
