/* mountroot: mount the root filesystem at /sysroot. */
#ifndef LIFEBOAT_MOUNTROOT_H
#define LIFEBOAT_MOUNTROOT_H

#include <stdbool.h>

#include "init/root_args.h"
#include "bootlib/devwait.h"
#include "bootlib/sysroot.h"

/* Mount dev at SYSROOT: read-only unless rw, with rootfstype= (or the type
 * libblkid found) and rootflags=, loading the filesystem's module first.
 * Returns 0 or -errno; the message for the user is logged here. */
int mount_root(const struct root_args *args, const struct found_dev *dev);
/* Start loading the module of filesystem type in the background
 * (bootlib/modload.h), when its type is known before the mount; the
 * mount waits for it. Nothing happens when the image has no such module
 * or a load runs already. */
void mount_root_preload(const char *type);

#endif
