/* shim_paths: the paths the init reads the kernel through, sent into the fake tree.
 *
 * Only absolute paths under the prefixes below move; everything else (the
 * program's own scratch files under /tmp, /proc/self, the libraries) is
 * the real one. The harness links FAKEROOT/dev/null and friends to the
 * real nodes, so a redirected /dev still has them. */
#include "tests/fakeroot/shim.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the covered code reads or runs: sysfs, device nodes, the command
 * line, the mount table (the resume decision's), the runtime tree, the
 * module table and files, the image's config, and the tools the unlock runs. */
static const char *const redirected[] = {
	"/sys", "/dev", "/proc/cmdline", "/proc/self/mountinfo", "/run",
	"/lib/modules", "/lib/lifeboat", "/etc/lifeboat", "/etc/cmdline.d", "/etc/crypttab",
	"/lib/cryptsetup", "/usr/sbin/cryptsetup", "/usr/lib/lifeboat",
};

const char *shim_root(void)
{
	const char *root = getenv("FAKEROOT");

	return root && root[0] == '/' ? root : NULL;
}

static int is_redirected(const char *path)
{
	for (size_t i = 0; i < sizeof(redirected) / sizeof(redirected[0]); i++) {
		size_t n = strlen(redirected[i]);

		if (strncmp(path, redirected[i], n) == 0 && (path[n] == '\0' || path[n] == '/'))
			return 1;
	}
	return 0;
}

const char *shim_path(const char *path, char *buf, size_t size)
{
	const char *root = shim_root();

	if (!root || !path || !is_redirected(path))
		return path;
	if ((size_t)snprintf(buf, size, "%s%s", root, path) >= size)
		return path;
	return buf;
}

void *shim_next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

void shim_log(const char *fmt, ...)
{
	char path[4096], line[1024];
	const char *root = shim_root();
	int (*next_open)(const char *, int, ...) = shim_next("open");
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	snprintf(path, sizeof(path), "%s/calls.log", root ? root : "/nonexistent");
	/* One write with O_APPEND: lines of several processes do not mix. */
	fd = root ? next_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : 2;
	if (fd < 0)
		return;
	/* A line lost is seen as a missing call by the case that reads them. */
	(void)!write(fd, line, (size_t)n);
	if (fd != 2)
		close(fd);
}

/* One wrapper a function: look libc's up once, call it on the moved path. */
#define NEXT(name) \
	static __typeof__(name) *next; \
	char moved[4096]; \
	if (!next) \
		next = (__typeof__(name) *)shim_next(#name)

#define PATH_WRAPPER(ret, name, params, call) \
	ret name params \
	{ \
		NEXT(name); \
		return next call; \
	}

/* The mode argument is there only when a file may be created. */
static mode_t mode_of(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
}

static int open_moved(int dirfd, const char *path, int flags, va_list ap)
{
	static int (*next)(int, const char *, int, ...);
	char moved[4096];

	if (!next)
		next = (int (*)(int, const char *, int, ...))shim_next("openat");
	return next(dirfd, shim_path(path, moved, sizeof(moved)), flags, mode_of(flags, ap));
}

/* open(path) is openat(AT_FDCWD, path); the 64 forms are the same on 64 bits. */
#define OPEN_WRAPPER(name, params, dirfd) \
	int name params \
	{ \
		va_list ap; \
		int fd; \
		va_start(ap, flags); \
		fd = open_moved(dirfd, path, flags, ap); \
		va_end(ap); \
		return fd; \
	}

OPEN_WRAPPER(open, (const char *path, int flags, ...), AT_FDCWD)
OPEN_WRAPPER(open64, (const char *path, int flags, ...), AT_FDCWD)
OPEN_WRAPPER(openat, (int dirfd, const char *path, int flags, ...), dirfd)
OPEN_WRAPPER(openat64, (int dirfd, const char *path, int flags, ...), dirfd)

#define P(path) shim_path(path, moved, sizeof(moved))

PATH_WRAPPER(FILE *, fopen, (const char *path, const char *mode), (P(path), mode))
PATH_WRAPPER(FILE *, fopen64, (const char *path, const char *mode), (P(path), mode))
PATH_WRAPPER(DIR *, opendir, (const char *path), (P(path)))
PATH_WRAPPER(int, access, (const char *path, int mode), (P(path), mode))
PATH_WRAPPER(int, faccessat, (int dirfd, const char *path, int mode, int flags),
	     (dirfd, P(path), mode, flags))
PATH_WRAPPER(int, stat, (const char *path, struct stat *st), (P(path), st))
PATH_WRAPPER(int, lstat, (const char *path, struct stat *st), (P(path), st))
PATH_WRAPPER(int, stat64, (const char *path, struct stat64 *st), (P(path), st))
PATH_WRAPPER(int, lstat64, (const char *path, struct stat64 *st), (P(path), st))
PATH_WRAPPER(int, fstatat, (int dirfd, const char *path, struct stat *st, int flags),
	     (dirfd, P(path), st, flags))
PATH_WRAPPER(int, fstatat64, (int dirfd, const char *path, struct stat64 *st, int flags),
	     (dirfd, P(path), st, flags))
PATH_WRAPPER(int, mkdir, (const char *path, mode_t mode), (P(path), mode))
PATH_WRAPPER(int, rmdir, (const char *path), (P(path)))
PATH_WRAPPER(int, unlink, (const char *path), (P(path)))
PATH_WRAPPER(int, symlink, (const char *target, const char *path), (target, P(path)))
PATH_WRAPPER(ssize_t, readlink, (const char *path, char *buf, size_t size), (P(path), buf, size))
PATH_WRAPPER(int, execv, (const char *path, char *const argv[]), (P(path), argv))
PATH_WRAPPER(int, execve, (const char *path, char *const argv[], char *const envp[]),
	     (P(path), argv, envp))

int rename(const char *from, const char *to)
{
	char moved_to[4096];

	NEXT(rename);
	return next(P(from), shim_path(to, moved_to, sizeof(moved_to)));
}
