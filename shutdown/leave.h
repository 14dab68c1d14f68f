/* leave: before switch_root, the init leaves the way out in /run/initramfs
 * when the root's stack needs it (md, device-mapper, iSCSI or NFS under
 * the root): a root on a plain disk is remounted read-only by the real
 * init's shutdown and needs nothing more, so it costs no memory. */
#ifndef LIFEBOAT_SHUTDOWN_LEAVE_H
#define LIFEBOAT_SHUTDOWN_LEAVE_H

#include <stdbool.h>
#include <stddef.h>

/* Does a root need the way out? block_path is the resolved sysfs path of
 * its block device (/sys/devices/virtual/block/dm-1, or "" for none), nfs
 * whether it is an NFS mount. */
bool shutdown_env_needed(const char *block_path, bool nfs);

/* Leave the environment when the root mounted at sysroot needs it, or
 * when break_shell (rd.break=shutdown) asks, with the image's shell then
 * (a static one: Debian's busybox is). Returns 1 when it was left, 0 when
 * not needed, -errno on failure, with what failed written into why. */
int shutdown_env_leave(const char *sysroot, bool break_shell, char *why, size_t size);

#endif
