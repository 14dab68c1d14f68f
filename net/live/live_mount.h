/* live_mount: the checked image read-only under a tmpfs overlay on
 * /sysroot, so that the real root runs writable in RAM. */
#ifndef LIFEBOAT_NET_LIVE_LIVE_MOUNT_H
#define LIFEBOAT_NET_LIVE_LIVE_MOUNT_H

#include <stddef.h>

/* Mount image (squashfs or erofs, probed) through a loop device at
 * LAYOUT_LIVE_LOWER, a tmpfs of size (tmpfs's size=; "": its default,
 * half the RAM) at LAYOUT_LIVE_RW, and the overlay of both at SYSROOT.
 * Returns 0, or -errno with the step that failed in why. */
int live_mount(const char *image, const char *size, char *why, size_t why_size);

#endif
