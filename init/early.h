/* early: the API filesystems and the console, before anything else. */
#ifndef LIFEBOAT_EARLY_H
#define LIFEBOAT_EARLY_H

#include <stddef.h>

/* Mount /proc, /sys, /dev (devtmpfs) and /run, and create /sysroot.
 * Returns 0, or -errno with what failed in why. */
int early_mounts(char *why, size_t why_size);
/* Make /dev/console stdin, stdout and stderr. */
void early_console(void);

#endif
