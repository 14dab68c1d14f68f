/* procsweep: nothing of the initramfs runs on under the real root. */
#ifndef LIFEBOAT_BOOTLIB_PROCSWEEP_H
#define LIFEBOAT_BOOTLIB_PROCSWEEP_H

#include <stddef.h>

/* Called by PID 1 right before switch_root: wait for the background
 * module load (bootlib/modload.h), then kill every process but the
 * caller and the kernel's threads (what SSH sessions and rescue shells
 * left: nohup, a daemon, a job in the background) and reap them. Returns
 * how many were found running, or -EBUSY when some would not end in time (how
 * many, in why), or -errno when /proc cannot be read. */
int procsweep_all(char *why, size_t why_size);

#endif
