/* unmount: unmount what is left of the old root, children first, until
 * nothing more comes off; a detach (lazy unmount) only as the last resort,
 * and said. */
#ifndef LIFEBOAT_SHUTDOWN_UNMOUNT_H
#define LIFEBOAT_SHUTDOWN_UNMOUNT_H

/* Unmount everything at or below prefix (/oldroot). Each mount is logged
 * (debug) and each that will not come off is logged with the reason.
 * Returns how many mounts would not unmount (0: all came off clean; the
 * others were remounted read-only where they could be and detached), or
 * -errno when mountinfo cannot be read. */
int unmount_below(const char *prefix);

#endif
