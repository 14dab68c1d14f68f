/* timeline: when each boot phase happened, for users and benchmarks.
 *
 * /run/initramfs/timeline holds one line a phase:
 *     SECONDS PHASE [DETAIL]
 * SECONDS is CLOCK_MONOTONIC (time since boot, as in the kernel log) with
 * microseconds; PHASE is one word; DETAIL is free text to the end of the line.
 * Phases of a normal boot: start, modules, rootdev, mounted, exec.
 * The file moves with /run into the real root, so it stays readable there.
 */
#ifndef LIFEBOAT_TIMELINE_H
#define LIFEBOAT_TIMELINE_H

#include "common/timeline_format.h"

#define TIMELINE_PATH TIMELINE_FORMAT_PATH

/* Record a phase now. Kept in memory until timeline_flush() can write. */
void timeline_mark(const char *phase, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write what is recorded and not yet written; called once /run exists and
 * then after every later mark. Returns 0 or -errno. */
int timeline_flush(void);

#endif
