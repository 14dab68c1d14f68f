/* fsck: run the filesystem's checker in preen mode and read its verdict. */
#include "fsck/fsck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/blockattr.h"
#include "bootlib/devwait.h"
#include "bootlib/log.h"
#include "bootlib/run.h"

/* fsck(8): 1 errors corrected, 2 corrected and a reboot wanted (for a
 * mounted filesystem; ours is not mounted yet), 4 errors left, 8 operational
 * error, 16 usage, 32 cancelled, 128 library error. */
enum fsck_result fsck_status_meaning(int status)
{
	if (status < 0 || status >= 4)
		return FSCK_FAILED;
	return status == 0 ? FSCK_CLEAN : FSCK_REPAIRED;
}

enum fsck_result fsck_root(const char *devname, const char *fstype, enum fsck_mode mode,
			   char *out, size_t size)
{
	const struct fsck_checker *c = fsck_checker_find(fstype);
	char dev[96];
	char *argv[] = { NULL, "-p", dev, NULL, NULL };
	int status;

	out[0] = '\0';
	if (mode == FSCK_MODE_SKIP || !c || access(c->path, X_OK) < 0)
		return FSCK_SKIPPED;
	argv[0] = (char *)c->path;
	snprintf(dev, sizeof(dev), "/dev/%s", devname);
	/* -f: e2fsck checks a filesystem that says it is clean too. */
	if (mode == FSCK_MODE_FORCE) {
		argv[2] = "-f";
		argv[3] = dev;
	}
	status = run_tool(argv, NULL, 0, out, size);
	if (status < 0)
		snprintf(out, size, "%s could not run: %s", c->path, strerror(-status));
	else if (status >= 4 && !out[0])
		snprintf(out, size, "%s exited with status %d", c->path, status);
	return fsck_status_meaning(status);
}

/* A read-only device (a LUKS root opened with crypttab's readonly) cannot
 * be repaired: the checker would fail to open it for writing. */
static bool device_read_only(const char *devname)
{
	char ro[8];

	return blockattr_read(devname, "ro", ro, sizeof(ro)) == 0 && strcmp(ro, "1") == 0;
}

int fsck_before_mount(enum fsck_mode mode, const char *devname, const char *type,
		      char *why, size_t why_size)
{
	char out[4096];

	if (mode != FSCK_MODE_SKIP && device_read_only(devname)) {
		log_info("/dev/%s is read-only: the filesystem check is skipped", devname);
		return 0;
	}
	switch (fsck_root(devname, type, mode, out, sizeof(out))) {
	case FSCK_SKIPPED:
		return 0;
	case FSCK_CLEAN:
		return 1;
	case FSCK_REPAIRED:
		log_console("lifeboat: the filesystem check repaired /dev/%s (%s):\n%s\n",
			    devname, type, out);
		return 1;
	case FSCK_FAILED:
		break;
	}
	log_console("lifeboat: the filesystem check of /dev/%s (%s) said:\n%s\n", devname, type, out);
	snprintf(why, why_size, "the filesystem on /dev/%s (%s) has errors the automatic "
		 "check could not repair (its output is above); repair it here with "
		 "fsck /dev/%s (or e2fsck), then exit to retry; rd.fsck=0 skips the check",
		 devname, type, devname);
	return -EUCLEAN;
}

int fsck_stamp_leave(const char *path)
{
	char dir[256];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}
