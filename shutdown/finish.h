/* finish: the way out's last act: one more sync, bounded, then reboot(2)
 * as the verb asks. */
#ifndef LIFEBOAT_SHUTDOWN_FINISH_H
#define LIFEBOAT_SHUTDOWN_FINISH_H

#include "shutdown/verb.h"

/* How long the last sync may take: the steps synced and unmounted before
 * it, so what is left is little; a sync still not done by then is stuck
 * on a disk or server that does not take the writes (audit S2). */
#define FINISH_SYNC_MS 10000

/* The system calls, so that a test can stand in for them. */
struct finish_ops {
	int (*sync)(void);        /* sync(2); its return value is ignored */
	int (*reboot)(int cmd);   /* reboot(2): 0 or -errno (it returns only on failure) */
};

/* sync(2), as a function for sync_bounded and the steps: returns 0. */
int finish_sync(void);

/* sync_fn (finish_sync, or a test's) in a child with sync_ms as its limit;
 * one that did not end by then is left behind and said. Returns 0, or
 * -ETIMEDOUT. */
int finish_sync_bounded(int (*sync_fn)(void), unsigned int sync_ms);

/* Sync in a child with sync_ms as its limit (a child stuck in the kernel
 * is left behind), say that the way out is done (summary), then call
 * reboot as args asks; a kexec that fails falls back to a reboot.
 * Returns the last reboot call's -errno: it returns only when that failed. */
int finish_run(const struct shutdown_args *args, const char *summary,
	       const struct finish_ops *ops, unsigned int sync_ms);

#endif
