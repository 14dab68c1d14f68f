/* live_loop: a read-only loop device over a file, set up with the loop
 * driver's ioctls (no losetup in the image). */
#ifndef LIFEBOAT_NET_LIVE_LIVE_LOOP_H
#define LIFEBOAT_NET_LIVE_LIVE_LOOP_H

#include <stddef.h>

/* Attach path to a free loop device, read-only, detached by the kernel
 * once nothing holds it (its mount gone); name gets "loopN". Returns an
 * open descriptor of the device, to close once it is mounted, or -errno. */
int live_loop_attach(const char *path, char *name, size_t size);

#endif
