/* leave: before switch_root, the init leaves the way out in /run/initramfs
 * when the root's stack needs it (md, device-mapper, iSCSI, NVMe/TCP or NFS under
 * the root): a root on a plain disk is remounted read-only by the real
 * init's shutdown and needs nothing more, so it costs no memory. */
#ifndef LIFEBOAT_SHUTDOWN_LEAVE_H
#define LIFEBOAT_SHUTDOWN_LEAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The init's decision for the way out: rd.break=shutdown, as its one parse
 * of the command line (/etc/cmdline.d and quotes included) found it. The
 * way out reads it under its own root; the init writes it under
 * LAYOUT_EXITRD_DIR. */
#define SHUTDOWN_BREAK_MARK "/.break_shutdown"

/* Does a root need the way out? block_path is the resolved sysfs path of
 * its block device (/sys/devices/virtual/block/dm-1, or "" for none), nfs
 * whether it is an NFS mount. */
bool shutdown_leave_env_needed(const char *block_path, bool nfs);

/* Leave the environment when the root mounted at sysroot needs it, or
 * when break_shell (rd.break=shutdown) asks, with then what the way out's
 * shell gate needs (bootlib/shell.c: the image's shell, a static one as
 * Debian's busybox is; --rescue-auth's hash and libcrypt) and the mark.
 * Returns 1 when it was left, 0 when
 * not needed, -errno on failure, with what failed written into why. */
int shutdown_leave_env(const char *sysroot, bool break_shell, char *why, size_t size);

/* rd.break=shutdown's part, under dir (LAYOUT_EXITRD_DIR): the image's
 * shell (when it has one), the hash file auth (RESCUE_AUTH_PATH, when the
 * image has one) with libcrypt, then the mark. Returns 0 when the mark was
 * left, -errno when not (the hash could not be left: no shell then). */
int shutdown_leave_break(const char *dir, const char *auth);

/* Copy src to dst (created, or truncated; not through a link), mode from
 * the start. Returns 0 or -errno. */
int shutdown_leave_copy_file(const char *src, const char *dst, mode_t mode);

#endif
