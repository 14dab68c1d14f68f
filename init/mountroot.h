/* mountroot: mount the root filesystem at /sysroot. */
#ifndef LIFEBOAT_MOUNTROOT_H
#define LIFEBOAT_MOUNTROOT_H

#include <stdbool.h>

#include "bootlib/cmdline.h"
#include "bootlib/devwait.h"
#include "bootlib/sysroot.h"

/* Mount dev at SYSROOT: read-only unless rw, with rootfstype= (or the type
 * libblkid found) and rootflags=, loading the filesystem's module first.
 * Returns 0 or -errno; the message for the user is logged here. */
int mount_root(const struct root_args *args, const struct found_dev *dev);

#endif
