/* hooktmp: the build's scratch directory for its hooks (LIFEBOAT_TMPDIR,
 * docs/extending.md). A hook that makes files for the image (a bridge
 * to initramfs-tools' hooks builds a whole tree) puts them there and asks
 * for them with `file`; they are read when the image is written, after the
 * hook has exited, so the directory lives as long as the build and is
 * removed with everything in it when the build ends.
 */
#ifndef LIFEBOAT_HOOKTMP_H
#define LIFEBOAT_HOOKTMP_H

#include <stddef.h>

/* Make a new directory of root's alone (0700) under $TMPDIR or /tmp into
 * path. Returns 0 or -errno (reported). */
int hooktmp_make(char *path, size_t size);
/* Remove path and everything below it, symlinks not followed; "" is
 * nothing to do. Failures are warned about: the image is written. */
void hooktmp_remove(const char *path);

#endif
