/* shim_kernel: module loads and mounts written down instead of done.
 *
 * Preloaded into a harness case, nothing reaches the kernel: without a
 * fake tree the calls fail (EPERM) rather than load or mount for real. */
#include "tests/fakeroot/shim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The log names a module by its path in the fake tree's terms. */
static void fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	const char *root = shim_root();
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	buf[n < 0 ? 0 : n] = '\0';
	if (root && strncmp(buf, root, strlen(root)) == 0)
		memmove(buf, buf + strlen(root), strlen(buf + strlen(root)) + 1);
}

/* 0 in a harness run (the call was written down), else -1 with EPERM. */
static long recorded(void)
{
	if (shim_root())
		return 0;
	errno = EPERM;
	return -1;
}

static long finit_module_log(int fd, const char *options)
{
	char path[4096];

	fd_path(fd, path, sizeof(path));
	shim_log("finit_module %s %s", path, options && options[0] ? options : "-");
	return recorded();
}

static long init_module_log(unsigned long len, const char *options)
{
	shim_log("init_module %lu %s", len, options && options[0] ? options : "-");
	return recorded();
}

static long delete_module_log(const char *name)
{
	shim_log("delete_module %s", name);
	return recorded();
}

long syscall(long number, ...)
{
	static long (*next)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_finit_module)
		return finit_module_log((int)a[0], (const char *)a[1]);
	if (number == SYS_init_module)
		return init_module_log((unsigned long)a[1], (const char *)a[2]);
	if (number == SYS_delete_module)
		return delete_module_log((const char *)a[0]);
	if (!next)
		next = (long (*)(long, ...))shim_next("syscall");
	return next(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* libc's wrappers, for code that calls them by name. */
int init_module(void *image, unsigned long len, const char *options)
{
	(void)image;
	return (int)init_module_log(len, options);
}

int finit_module(int fd, const char *options, int flags)
{
	(void)flags;
	return (int)finit_module_log(fd, options);
}

int delete_module(const char *name, unsigned int flags)
{
	(void)flags;
	return (int)delete_module_log(name);
}

int mount(const char *source, const char *target, const char *type, unsigned long flags,
	  const void *data)
{
	shim_log("mount %s %s %s 0x%lx %s", source ? source : "-", target, type ? type : "-",
		 flags, data ? (const char *)data : "-");
	return (int)recorded();
}

int umount2(const char *target, int flags)
{
	shim_log("umount %s %d", target, flags);
	return (int)recorded();
}

int umount(const char *target)
{
	return umount2(target, 0);
}
