/* fakeroot: build a fake root for a harness case and play its kernel. */
#include "tests/fakeroot/fakeroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRIGGER_WAIT_MS 10000

/* For fr_tree_teardown. */
static struct fr_tree *last_made;

void fr_preload(char **argv)
{
	char self[4096], shim[4200];
	const char *have = getenv("LD_PRELOAD");
	ssize_t n;

	if (have && strstr(have, "/shim.so"))
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("fakeroot: /proc/self/exe");
		exit(1);
	}
	self[n] = '\0';
	snprintf(shim, sizeof(shim), "%.*s/shim.so", (int)(strrchr(self, '/') - self), self);
	setenv("LD_PRELOAD", shim, 1);
	/* Under ASan the shim comes before its runtime, which is fine here. */
	setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 0);
	execv(self, argv);
	fprintf(stderr, "fakeroot: running %s again with %s preloaded failed: %s\n", self, shim,
		strerror(errno));
	exit(1);
}

static int full_path(const struct fr_tree *t, const char *rel, char *buf, size_t size)
{
	return (size_t)snprintf(buf, size, "%s/%s", t->dir, rel) < size ? 0 : -ENAMETOOLONG;
}

/* Every folder of path up to its last '/'. */
static void parents_make(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

int fr_write(const struct fr_tree *t, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	if (full_path(t, rel, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	parents_make(path);
	if (!text)
		return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -EIO;
}

int fr_modtab(const struct fr_tree *t, const char *table)
{
	int r = fr_write(t, "lib/lifeboat/modules.tab", table);

	/* "m\tNAME\tPATH\t...": each module's file. */
	for (const char *line = table; r == 0 && line && *line; line = strchr(line, '\n')) {
		char name[64], path[256];

		line += *line == '\n';
		if (sscanf(line, "m\t%63[^\t]\t/%255[^\t]", name, path) == 2)
			r = fr_write(t, path, "a module\n");
	}
	return r;
}

/* The nodes a redirected /dev must still have are the real ones; not the
 * console: a prompt must not reach the machine's. */
static const char *const real_nodes[] = { "null", "zero", "urandom", NULL };

int fr_tree_make(struct fr_tree *t)
{
	char path[512];

	snprintf(t->dir, sizeof(t->dir), "/tmp/lifeboat-fakeroot-XXXXXX");
	if (!mkdtemp(t->dir))
		return -errno;
	fr_write(t, "sys/class/block", NULL);
	fr_write(t, "sys/bus", NULL);
	fr_write(t, "run", NULL);
	fr_write(t, "dev", NULL);
	for (const char *const *n = real_nodes; *n; n++) {
		char real[64];

		snprintf(real, sizeof(real), "/dev/%s", *n);
		snprintf(path, sizeof(path), "%s/dev/%s", t->dir, *n);
		if (symlink(real, path) < 0)
			return -errno;
	}
	/* The init's log (bootlib/log.c writes to /dev/kmsg) and what a prompt
	 * writes, for the case to read. */
	fr_write(t, "dev/kmsg", "");
	fr_write(t, "dev/console", "");
	last_made = t;
	return setenv("FAKEROOT", t->dir, 1) == 0 ? 0 : -errno;
}

int fr_tree_teardown(void **state)
{
	(void)state;
	if (last_made)
		fr_tree_remove(last_made);
	last_made = NULL;
	return 0;
}

void fr_tree_remove(struct fr_tree *t)
{
	pid_t pid;

	unsetenv("FAKEROOT");
	if (strncmp(t->dir, "/tmp/lifeboat-fakeroot-", 23) != 0)
		return;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "rm", "-rf", t->dir, NULL };

		execv("/bin/rm", argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* Run argv (a host tool) without the shim; 0 when it exits 0. */
static int tool_run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		unsetenv("LD_PRELOAD");
		dup2(null, 1);
		dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

int fr_ext4(const struct fr_tree *t, const char *rel, const char *label, const char *uuid)
{
	char path[512];
	char *argv[] = { "/sbin/mke2fs", "-q", "-F", "-t", "ext4", "-b", "1024", "-L",
			 (char *)label, "-U", (char *)uuid, path, "1024", NULL };

	if (full_path(t, rel, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	parents_make(path);
	return tool_run(argv);
}

/* LUKS1's header (cryptsetup's on-disk format document): magic, version 1,
 * the cipher, mode and hash names, then the UUID at byte 168. */
int fr_luks1(const struct fr_tree *t, const char *rel, const char *uuid)
{
	unsigned char hdr[4096] = { 'L', 'U', 'K', 'S', 0xba, 0xbe, 0, 1 };
	char path[512];
	int fd, r = 0;

	memcpy(hdr + 8, "aes", 3);
	memcpy(hdr + 40, "xts-plain64", 11);
	memcpy(hdr + 72, "sha256", 6);
	snprintf((char *)hdr + 168, 40, "%s", uuid);
	if (full_path(t, rel, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	parents_make(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr) || ftruncate(fd, 1 << 20) < 0)
		r = -EIO;
	close(fd);
	return r;
}

/* One attribute of /sys/class/block/NAME. */
static int block_attr(const struct fr_tree *t, const char *name, const char *attr,
		      const char *text)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/class/block/%s/%s", name, attr);
	return fr_write(t, rel, text);
}

int fr_block_add(const struct fr_tree *t, const char *name, unsigned int major,
		 unsigned int minor, const char *image)
{
	char uevent[256], dev[32], rel[128], from[512], to[512];
	int r;

	snprintf(uevent, sizeof(uevent), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=disk\n", major,
		 minor, name);
	snprintf(dev, sizeof(dev), "%u:%u\n", major, minor);
	snprintf(rel, sizeof(rel), "dev/%s", name);
	r = block_attr(t, name, "uevent", uevent);
	if (r == 0)
		r = block_attr(t, name, "dev", dev);
	if (r < 0)
		return r;
	if (full_path(t, image, from, sizeof(from)) < 0 || full_path(t, rel, to, sizeof(to)) < 0)
		return -ENAMETOOLONG;
	return rename(from, to) == 0 ? 0 : -errno;
}

/* One NUL-terminated field more at msg + *len; *len passes size when it
 * does not fit. */
static void field_add(char *msg, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(msg + *len, size - *len, fmt, ap);
	va_end(ap);
	*len += n < 0 ? size : (size_t)n + 1;
}

int fr_uevent_send(const struct fr_tree *t, const char *action, const char *devpath,
		   const char *const *fields)
{
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	char msg[2048];
	size_t len = 0;
	int fd, r = 0;

	field_add(msg, sizeof(msg), &len, "%s@%s", action, devpath);
	field_add(msg, sizeof(msg), &len, "ACTION=%s", action);
	field_add(msg, sizeof(msg), &len, "DEVPATH=%s", devpath);
	for (; fields && *fields; fields++)
		field_add(msg, sizeof(msg), &len, "%s", *fields);
	if (len > sizeof(msg))
		return -E2BIG;
	snprintf(to.sun_path, sizeof(to.sun_path), "%s/uevent.sock", t->dir);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (sendto(fd, msg, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		r = -errno;
	close(fd);
	return r;
}

int fr_block_appears(const struct fr_tree *t, const char *name, unsigned int major,
		     unsigned int minor, const char *image)
{
	char devpath[128], devname[80], maj[32], min[32];
	const char *fields[] = { "SUBSYSTEM=block", devname, "DEVTYPE=disk", maj, min, NULL };
	int r = fr_block_add(t, name, major, minor, image);

	snprintf(devpath, sizeof(devpath), "/devices/fake/block/%s", name);
	snprintf(devname, sizeof(devname), "DEVNAME=%s", name);
	snprintf(maj, sizeof(maj), "MAJOR=%u", major);
	snprintf(min, sizeof(min), "MINOR=%u", minor);
	return r < 0 ? r : fr_uevent_send(t, "add", devpath, fields);
}

void fr_calls(const struct fr_tree *t, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	size_t n = 0;

	buf[0] = '\0';
	if (full_path(t, "calls.log", path, sizeof(path)) < 0 || !(f = fopen(path, "r")))
		return;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

pid_t fr_after_load(const struct fr_tree *t, const char *trigger, const struct fr_disk *disk)
{
	pid_t pid = fork();
	char calls[8192];

	if (pid != 0)
		return pid;
	for (int ms = 0; ms < TRIGGER_WAIT_MS; ms += 5) {
		struct timespec tick = { 0, 5 * 1000 * 1000 };

		fr_calls(t, calls, sizeof(calls));
		if (strstr(calls, trigger))
			_exit(fr_block_appears(t, disk->name, disk->major, disk->minor,
					       disk->image) == 0 ? 0 : 1);
		nanosleep(&tick, NULL);
	}
	_exit(2);
}

int fr_after_load_join(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -ECHILD;
	if (!WIFEXITED(status))
		return -EIO;
	return WEXITSTATUS(status) == 0 ? 0 : WEXITSTATUS(status) == 2 ? -ETIMEDOUT : -EIO;
}
