/* key_read: read a key file, mounting its device read-only when it has one. */
#include "blockstack/key_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/fsmodule.h"
#include "common/fileread.h"

/* Without a limit, one byte more than size means the key is cut: refused. */
static int key_fd_read(int fd, const struct key_request *req, char *buf, size_t size, size_t *len)
{
	ssize_t n;
	char extra;

	if (req->limit > size)
		return -EFBIG;
	if (req->offset && lseek(fd, (off_t)req->offset, SEEK_SET) < 0)
		return -errno;
	n = file_read_fd(fd, buf, req->limit ? req->limit : size);
	if (n < 0)
		return (int)n;
	if (!req->limit && (size_t)n == size && read(fd, &extra, 1) > 0)
		return -EFBIG;
	if ((req->limit && (size_t)n < req->limit) || (req->offset && n == 0))
		return -ENODATA;
	*len = (size_t)n;
	return 0;
}

/* What stat says of the file, before it is opened: a regular file, on
 * within's filesystem, whose size fits the request. */
static int key_file_check(const struct key_request *req, const struct stat *st, size_t size)
{
	struct stat dir;

	if (!S_ISREG(st->st_mode))
		return -EMEDIUMTYPE;
	if (req->within && (stat(req->within, &dir) < 0 || dir.st_dev != st->st_dev))
		return -EXDEV;
	if ((uint64_t)st->st_size < req->offset)
		return -ENODATA;
	if (!req->limit && (uint64_t)st->st_size - req->offset > size)
		return -EFBIG;
	return 0;
}

int key_file_read(const struct key_request *req, char *buf, size_t size, size_t *len)
{
	struct stat before, st;
	int fd, r;

	*len = 0;
	if (stat(req->path, &before) < 0)
		return -errno;
	r = key_file_check(req, &before, size);
	if (r < 0)
		return r;
	/* O_NONBLOCK and a second look: should the name have become a FIFO
	 * in between, neither the open nor a read waits. */
	fd = open(req->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (st.st_dev != before.st_dev || st.st_ino != before.st_ino)
		r = -EMEDIUMTYPE;
	else
		r = key_fd_read(fd, req, buf, size, len);
	close(fd);
	return r;
}

const char *key_read_strerror(int r)
{
	if (r == -EFBIG)
		return "larger than 8192 bytes";
	if (r == -ENODATA)
		return "shorter than its keyfile-offset and keyfile-size say";
	if (r == -EMEDIUMTYPE)
		return "not a regular file (a FIFO, device or directory could hang the boot)";
	if (r == -EXDEV)
		return "not on the key device (a link leads out of it)";
	return strerror(-r);
}

/* Options that keep a read-only mount from writing: a journal left to
 * replay is not replayed (the key is read from what is on the disk). */
static const char *no_replay_options(const char *type)
{
	if (strcmp(type, "ext3") == 0 || strcmp(type, "ext4") == 0)
		return "noload";
	if (strcmp(type, "xfs") == 0)
		return "norecovery";
	return "";
}

static int keydev_mount(const char *devname, char *why, size_t why_size)
{
	struct blk_info info;
	char src[96];
	int r = blkprobe_dev(devname, &info);

	if (r < 0 || !info.type[0]) {
		snprintf(why, why_size, "/dev/%s has no filesystem libblkid knows", devname);
		return r < 0 ? r : -EINVAL;
	}
	fsmodule_load(info.type);
	mkdir("/run/lifeboat", 0700);
	if (mkdir(KEYDEV_MOUNT, 0700) < 0 && errno != EEXIST) {
		r = -errno;
		snprintf(why, why_size, "making %s failed: %s", KEYDEV_MOUNT, strerror(-r));
		return r;
	}
	snprintf(src, sizeof(src), "/dev/%s", devname);
	if (mount(src, KEYDEV_MOUNT, info.type, MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  no_replay_options(info.type)) < 0) {
		r = -errno;
		snprintf(why, why_size, "mounting /dev/%s (%s) read-only failed: %s", devname,
			 info.type, strerror(-r));
		return r;
	}
	return 0;
}

int keydev_read(const char *devname, const struct key_request *req, char *buf, size_t size,
		size_t *len, char *why, size_t why_size)
{
	char file[sizeof(KEYDEV_MOUNT) + 256];
	struct key_request on_dev = *req;
	int r = keydev_mount(devname, why, why_size);

	*len = 0;
	if (r < 0)
		return r;
	snprintf(file, sizeof(file), "%s%s", KEYDEV_MOUNT, req->path);
	on_dev.path = file;
	on_dev.within = KEYDEV_MOUNT;
	r = key_file_read(&on_dev, buf, size, len);
	if (r < 0)
		snprintf(why, why_size, "reading %s on /dev/%s failed: %s", req->path, devname,
			 key_read_strerror(r));
	/* Lazily if busy: nothing of ours keeps it open, so it goes at once. */
	if (umount2(KEYDEV_MOUNT, 0) < 0)
		umount2(KEYDEV_MOUNT, MNT_DETACH);
	return r;
}
