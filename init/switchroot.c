/* switchroot: leave the initramfs for the real root and exec its init.
 *
 * The contract, step by step (as klibc's run-init does it):
 *  1. Be sure we are where we think: "/" is the initramfs (a ramfs or tmpfs)
 *     and newroot is a mount point of its own. Nothing is deleted otherwise.
 *  2. Check that init exists and is executable in newroot, before anything
 *     is torn down, so a bad init= can still be reported and rescued.
 *  3. Move /dev, /proc, /sys and /run onto the same places in newroot (so
 *     the real init finds them, and /run keeps the timeline).
 *  4. Move newroot over "/", chroot into it, chdir "/".
 *  5. Delete the initramfs contents to free its memory, never descending
 *     into another filesystem (newroot and anything mounted stay untouched).
 *     A child does it at idle priority while we exec the real init: the
 *     tens of megabytes of a generic image took 30 ms of the one CPU of
 *     the benchmark's VM, time the real root's init can have first.
 *  6. exec init with the arguments the kernel gave us.
 */
#include "init/switchroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

static const char *const moved_mounts[] = { "/dev", "/proc", "/sys", "/run" };

int switch_root_check_init(const char *newroot, const char *init)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", newroot, init);
	/* faccessat follows symlinks as they resolve from the initramfs, so an
	 * absolute symlink (/sbin/init -> /lib/systemd/systemd) is resolved
	 * inside newroot by hand: chroot-relative resolution comes later. */
	for (int hops = 0; hops < 16; hops++) {
		char target[PATH_MAX];
		ssize_t n;

		if (lstat(path, &st) < 0)
			return -errno;
		if (!S_ISLNK(st.st_mode))
			break;
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		if (target[0] == '/') {
			snprintf(path, sizeof(path), "%s%s", newroot, target);
		} else {
			char *slash = strrchr(path, '/');

			snprintf(slash + 1, sizeof(path) - (size_t)(slash + 1 - path), "%s", target);
		}
	}
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) < 0 ? -errno : 0;
}

static int check_where_we_are(const char *newroot)
{
	struct statfs sfs;
	struct stat root_st, new_st;

	if (statfs("/", &sfs) < 0 || stat("/", &root_st) < 0 || stat(newroot, &new_st) < 0)
		return -errno;
	if (sfs.f_type != RAMFS_MAGIC && sfs.f_type != TMPFS_MAGIC)
		return -EXDEV;
	if (access("/init", F_OK) < 0)
		return -ENOENT;
	if (root_st.st_dev == new_st.st_dev)
		return -ENOTBLK;
	return 0;
}

static int move_mounts(const char *newroot, const char **step)
{
	for (size_t i = 0; i < sizeof(moved_mounts) / sizeof(moved_mounts[0]); i++) {
		char target[PATH_MAX];

		snprintf(target, sizeof(target), "%s%s", newroot, moved_mounts[i]);
		if (mount(moved_mounts[i], target, NULL, MS_MOVE, NULL) == 0)
			continue;
		/* A root without that directory gets no such mount; one that
		 * cannot be moved is detached so nothing keeps the initramfs
		 * busy. */
		if (errno != ENOENT) {
			*step = "moving the API filesystems into the new root";
			return -errno;
		}
		umount2(moved_mounts[i], MNT_DETACH);
	}
	return 0;
}

/* Remove everything below dirfd that lives on device dev. */
static void delete_contents(int dirfd, dev_t dev)
{
	DIR *dir = fdopendir(dirfd);
	struct dirent *de;

	if (!dir) {
		close(dirfd);
		return;
	}
	while ((de = readdir(dir))) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != dev)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (fd >= 0)
				delete_contents(fd, dev);
			unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
		} else {
			unlinkat(dirfd, de->d_name, 0);
		}
	}
	closedir(dir);
}

/* Step 5 in a child at idle priority; inline if there is no child. */
static void delete_initramfs(int rootfd, dev_t dev)
{
	const struct sched_param idle = { 0 };
	pid_t pid = fork();

	if (pid > 0) {
		close(rootfd);
		return;
	}
	if (pid == 0)
		sched_setscheduler(0, SCHED_IDLE, &idle);
	delete_contents(rootfd, dev);
	if (pid == 0)
		_exit(0);
}

/* Step 4. */
static int enter_new_root(const char **step)
{
	*step = "moving the new root over /";
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0)
		return -errno;
	*step = "chroot into the new root";
	if (chroot(".") < 0 || chdir("/") < 0)
		return -errno;
	return 0;
}

/* The contract's steps; *step names the one that failed. */
static int switch_root_steps(const char *newroot, const char *init, char *const argv[],
			     const char **step)
{
	struct stat root_st;
	int r, rootfd;

	*step = "checking that / is the initramfs and the new root is mounted";
	r = check_where_we_are(newroot);
	if (r < 0)
		return r;
	*step = "checking the init program";
	r = switch_root_check_init(newroot, init);
	if (r < 0)
		return r;
	r = move_mounts(newroot, step);
	if (r < 0)
		return r;
	*step = "entering the new root";
	if (chdir(newroot) < 0 || stat("/", &root_st) < 0)
		return -errno;
	/* The initramfs, reachable through this after the move hides it. */
	rootfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	r = enter_new_root(step);
	if (r < 0) {
		close(rootfd);
		return r;
	}
	delete_initramfs(rootfd, root_st.st_dev);
	*step = "executing init";
	execv(init, argv);
	return -errno;
}

int switch_root(const char *newroot, const char *init, char *const argv[],
		char *why, size_t why_size)
{
	const char *step = "starting";
	int r = switch_root_steps(newroot, init, argv, &step);

	snprintf(why, why_size, "switch_root failed while %s: %s", step, strerror(-r));
	return r;
}
