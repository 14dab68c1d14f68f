/* early: the API filesystems and the console, before anything else. */
#ifndef LIFEBOAT_EARLY_H
#define LIFEBOAT_EARLY_H

/* Mount /proc, /sys, /dev (devtmpfs) and /run, and create /sysroot.
 * Returns 0 or -errno with *what naming the mount that failed. */
int early_mounts(const char **what);
/* Make /dev/console stdin, stdout and stderr. */
void early_console(void);

#endif
