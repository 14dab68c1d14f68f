/* usrmount: the real root's /usr when it is a filesystem of its own,
 * mounted on /sysroot/usr before switch_root: on a merged-/usr system
 * (Debian 12, 13) the real init itself lies in it. */
#ifndef LIFEBOAT_USRMOUNT_H
#define LIFEBOAT_USRMOUNT_H

#include <stddef.h>

#include "fsck/fsck_args.h"
#include "init/root_args.h"

/* With the root mounted on SYSROOT: find /usr's entry in the real root's
 * /etc/fstab (or mount.usr=, mount.usrfstype=, mount.usrflags=, which
 * replace it), wait for its device as for the root's (rd.timeout=), check
 * it as the root (fsck: the root's mode; only when the entry's pass number
 * is not 0) leaving /run/initramfs/fsck-usr, and mount it with the entry's
 * type and options, read-only when the root is. Nothing is done when
 * /usr is mounted already or has no entry; an entry that names no block
 * device (NFS, a bind) is left to the real root's init. Returns 0, or
 * -errno with what failed, on which device, in why (size bytes). */
int usr_mount(const struct root_args *root, enum fsck_mode fsck, char *why, size_t size);

#endif
