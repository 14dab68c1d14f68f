/* handover: `lifeboat-shutdown VERB` run by a script (sysvinit, OpenRC or
 * runit at the end of their shutdown), not as PID 1: it moves the caller
 * into the way out as systemd-shutdown does, then runs the way out there. */
#ifndef LIFEBOAT_SHUTDOWN_HANDOVER_H
#define LIFEBOAT_SHUTDOWN_HANDOVER_H

#include <stddef.h>

#include "shutdown/verb.h"

/* With a way out left in /run/initramfs: make it a mount, move /dev, /proc
 * and /sys into it, pivot_root into it with the old root at /oldroot, and
 * exec /shutdown VERB --handed-over (so no file of the old root stays
 * mapped by this process). Without one (a root on a plain disk) there is
 * nothing to hand over to:
 * reboot(2) as the verb asks. Returns 0 when no way out was left, -errno
 * with what failed in why; the caller then syncs and reboots. */
int handover_from_script(const struct shutdown_args *args, char *why, size_t size);

#endif
