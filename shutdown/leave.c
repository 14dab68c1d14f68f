/* leave: copy the way out into /run/initramfs (its size is measured in
 * docs/shutdown.md: one static program, since the block layers are taken
 * down with the kernel's ioctls rather than lvm, cryptsetup and mdadm). */
#include "shutdown/leave.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "bootlib/auth.h"
#include "bootlib/log.h"
#include "bootlib/shell.h"
#include "bootlib/unxz.h"
#include "common/filewrite.h"
#include "common/layout.h"
#include "shutdown/nvmfdown.h"

/* The mount points systemd moves /dev, /proc and /sys onto (it unmounts
 * those it finds no place for; newer versions also bind /run), and where
 * it leaves the old root. */
static const char *const env_dirs[] = { "dev", "proc", "sys", "run", "oldroot" };

bool shutdown_leave_env_needed(const char *block_path, bool nfs)
{
	const char *base = strrchr(block_path, '/');

	if (nfs)
		return true;
	base = base ? base + 1 : block_path;
	/* dm-N: LUKS or LVM; mdN: md RAID; an sd disk under an iSCSI session;
	 * a namespace over NVMe/TCP. */
	return strncmp(base, "dm-", 3) == 0 || strncmp(base, "md", 2) == 0 ||
	       strstr(block_path, "/session") != NULL || nvmfdown_is_tcp_disk(block_path);
}

static bool root_needs_it(const char *sysroot)
{
	char link[64], path[PATH_MAX] = "";
	struct statfs sfs;
	struct stat st;

	if (statfs(sysroot, &sfs) == 0 && sfs.f_type == NFS_SUPER_MAGIC)
		return true;
	if (stat(sysroot, &st) < 0)
		return false;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(link, path))
		path[0] = '\0';
	return shutdown_leave_env_needed(path, false);
}

int shutdown_leave_copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[64 * 1024];
	int in = open(src, O_RDONLY | O_CLOEXEC);
	int out, r = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	/* Created with its final mode: the hash is never readable by others. */
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
	if (out < 0) {
		r = -errno;
		close(in);
		return r;
	}
	while (r == 0 && (n = read(in, buf, sizeof(buf))) != 0)
		r = n < 0 ? -errno : file_write_fd(out, buf, (size_t)n);
	if (fchmod(out, mode) < 0 && r == 0)
		r = -errno;
	close(in);
	close(out);
	return r;
}

static int make_dirs(void)
{
	char path[128];

	if (mkdir(LAYOUT_EXITRD_DIR, 0755) < 0 && errno != EEXIST)
		return -errno;
	for (size_t i = 0; i < sizeof(env_dirs) / sizeof(env_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", LAYOUT_EXITRD_DIR, env_dirs[i]);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
	}
	return 0;
}

/* rd.break=shutdown: the image's shell, for the way out's break. */
static int copy_shell(const char *dir)
{
	char shell[64], real[PATH_MAX], path[PATH_MAX];

	if (shell_find(shell, sizeof(shell)) < 0)
		return -ENOENT;
	if (!realpath(shell, real))
		return -errno;
	snprintf(path, sizeof(path), "%s/bin", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/bin/sh", dir);
	return shutdown_leave_copy_file(real, path, 0755);
}

/* --rescue-auth's hash where the way out's gate reads it (RESCUE_AUTH_PATH
 * under its root), 0600 as in the image; the way out checks it with the
 * libcrypt it is linked with. */
static int copy_auth(const char *dir, const char *auth)
{
	char path[PATH_MAX];

	if (access(auth, F_OK) < 0 && errno == ENOENT)
		return 0;
	snprintf(path, sizeof(path), "%s/etc", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/etc/lifeboat", dir);
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s%s", dir, RESCUE_AUTH_PATH);
	return shutdown_leave_copy_file(auth, path, 0600);
}

int shutdown_leave_break(const char *dir, const char *auth)
{
	char path[PATH_MAX];
	int fd, r;

	if (copy_shell(dir) < 0)
		log_warn("rd.break=shutdown: the image has no shell to leave for the way out");
	/* No mark unless the password is there: the way out's gate would
	 * find no hash and open the shell to anyone. */
	r = copy_auth(dir, auth);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s%s", dir, SHUTDOWN_BREAK_MARK);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void leave_break(void)
{
	int r = shutdown_leave_break(LAYOUT_EXITRD_DIR, RESCUE_AUTH_PATH);

	if (r < 0)
		log_warn("rd.break=shutdown: leaving the shell's password (%s) or the mark of the "
			 "break in %s failed (%s): no shell at shutdown", RESCUE_AUTH_PATH,
			 LAYOUT_EXITRD_DIR, strerror(-r));
}

int shutdown_leave_env(const char *sysroot, bool break_shell, char *why, size_t size)
{
	int fd, r;

	if (!break_shell && !root_needs_it(sysroot))
		return 0;
	r = make_dirs();
	if (r == 0)
		r = unxz_file(LAYOUT_SHUTDOWN_XZ, LAYOUT_EXITRD_PROGRAM, 0755);
	if (r == 0 && break_shell)
		leave_break();
	if (r < 0) {
		snprintf(why, size, "leaving the way out in %s failed (%s, unpacking %s): at "
			 "shutdown the root's stack will stay assembled; rebuild the image with "
			 "this lifeboat", LAYOUT_EXITRD_DIR, strerror(-r), LAYOUT_SHUTDOWN_XZ);
		unlink(LAYOUT_EXITRD_PROGRAM);
		return r;
	}
	fd = open(LAYOUT_EXITRD_NEED, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return 1;
}
