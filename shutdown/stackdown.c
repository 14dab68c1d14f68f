/* stackdown: remove dm devices and stop md arrays, top layer first.
 *
 * No tool is needed for this: `cryptsetup close` and `vgchange -an` end in
 * the same device-mapper ioctl (DM_DEV_REMOVE; the crypt target wipes its
 * key when it is destroyed), `mdadm --stop` in md's STOP_ARRAY (the kernel
 * writes the superblock clean as it stops). Doing it here keeps the
 * environment left in memory down to one small static program. */
#include "shutdown/stackdown.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>

#include "bootlib/log.h"
#include "common/fileread.h"

enum stackdown_kind stackdown_dm_kind(const char *dm_uuid)
{
	if (strncmp(dm_uuid, "CRYPT-", 6) == 0)
		return STACKDOWN_CRYPT;
	if (strncmp(dm_uuid, "LVM-", 4) == 0)
		return STACKDOWN_LVM;
	if (strncmp(dm_uuid, "mpath-", 6) == 0)
		return STACKDOWN_MPATH;
	return STACKDOWN_DM_OTHER;
}

int stackdown_next(const struct stackdown_set *set)
{
	for (size_t i = 0; i < set->len; i++)
		if (!set->devs[i].done && !set->devs[i].held)
			return (int)i;
	return -1;
}

static bool dir_has_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool any = false;

	while (d && !any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

/* A stopped md array can stay in /sys/block until its node is released:
 * only a running one is part of the stack. */
static bool md_running(const char *sys, const char *kname)
{
	char path[512], state[32];

	snprintf(path, sizeof(path), "%s/block/%s/md/array_state", sys, kname);
	if (file_read_line(path, state, sizeof(state)) < 0)
		return false;
	return strcmp(state, "clear") != 0 && strcmp(state, "inactive") != 0;
}

static void scan_one(const char *sys, const char *kname, struct stackdown_dev *dev)
{
	char path[512], uuid[160] = "";

	memset(dev, 0, sizeof(*dev));
	snprintf(dev->kernel_name, sizeof(dev->kernel_name), "%.31s", kname);
	snprintf(path, sizeof(path), "%s/block/%s/holders", sys, kname);
	dev->held = dir_has_entries(path);
	if (strncmp(kname, "md", 2) == 0) {
		dev->kind = STACKDOWN_MD;
		snprintf(dev->name, sizeof(dev->name), "%.31s", kname);
		return;
	}
	snprintf(path, sizeof(path), "%s/block/%s/dm/name", sys, kname);
	if (file_read_line(path, dev->name, sizeof(dev->name)) < 0)
		snprintf(dev->name, sizeof(dev->name), "%.31s", kname);
	snprintf(path, sizeof(path), "%s/block/%s/dm/uuid", sys, kname);
	(void)file_read_line(path, uuid, sizeof(uuid));
	dev->kind = stackdown_dm_kind(uuid);
}

int stackdown_scan(const char *sys, struct stackdown_set *out)
{
	char path[256];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/block", sys);
	out->len = 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && out->len < STACKDOWN_DEV_MAX)
		if (strncmp(e->d_name, "dm-", 3) == 0 ||
		    (strncmp(e->d_name, "md", 2) == 0 && md_running(sys, e->d_name)))
			scan_one(sys, e->d_name, &out->devs[out->len++]);
	closedir(d);
	return 0;
}

static int dm_remove(const char *name)
{
	struct dm_ioctl io;
	int fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = sizeof(io);
	io.data_start = sizeof(io);
	snprintf(io.name, sizeof(io.name), "%s", name);
	if (ioctl(fd, DM_DEV_REMOVE, &io) < 0)
		r = -errno;
	close(fd);
	return r;
}

size_t stackdown_dm_message_pack(void *buf, size_t size, const char *name, const char *message)
{
	struct dm_ioctl *io = buf;
	struct dm_target_msg *msg;
	size_t len = sizeof(*io) + sizeof(*msg) + strlen(message) + 1;

	if (len > size || strlen(name) >= sizeof(io->name))
		return 0;
	memset(buf, 0, len);
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = (__u32)len;
	io->data_start = sizeof(*io);
	memcpy(io->name, name, strlen(name) + 1);
	msg = (struct dm_target_msg *)((char *)buf + sizeof(*io));
	msg->sector = 0;
	memcpy(msg->message, message, strlen(message) + 1);
	return len;
}

/* A map that queues I/O while it has no path (queue_if_no_path, as
 * no_path_retry queue or a number of retries sets it) would keep the
 * flush of its removal waiting for ever once every path is gone: told
 * fail_if_no_path first (dracut's `dmsetup message MAP 0 fail_if_no_path`),
 * it fails that I/O instead, and the removal goes on. */
static void mpath_stop_queueing(const char *name)
{
	/* u64s: the request's structs are 8-byte aligned. */
	uint64_t req[(sizeof(struct dm_ioctl) + sizeof(struct dm_target_msg) + 32) / 8 + 1];
	int fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	if (stackdown_dm_message_pack(req, sizeof(req), name, "fail_if_no_path") &&
	    ioctl(fd, DM_TARGET_MSG, req) < 0)
		log_warn("telling the multipath map %s to fail I/O without a path failed: %s; "
			 "its removal may wait for a path", name, strerror(errno));
	close(fd);
}

static int md_stop(const char *kname)
{
	char path[64];
	int fd, r = 0;

	snprintf(path, sizeof(path), "/dev/%s", kname);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, STOP_ARRAY, NULL) < 0)
		r = -errno;
	close(fd);
	return r;
}

static const char *kind_done_text(enum stackdown_kind kind)
{
	switch (kind) {
	case STACKDOWN_CRYPT: return "closed the LUKS container %s (its key is wiped from the kernel)";
	case STACKDOWN_LVM:   return "deactivated the LVM volume %s";
	case STACKDOWN_MD:       return "stopped the md array %s (its superblock is marked clean)";
	case STACKDOWN_MPATH: return "removed the multipath map %s (its paths are free)";
	default:             return "removed the device-mapper device %s";
	}
}

static int stack_dev_take_down(const struct stackdown_dev *dev)
{
	int r;

	if (dev->kind == STACKDOWN_MPATH)
		mpath_stop_queueing(dev->name);
	r = dev->kind == STACKDOWN_MD ? md_stop(dev->kernel_name) : dm_remove(dev->name);

	if (r < 0)
		log_warn("taking down %s (%s) failed: %s; it stays assembled (is it still "
			 "mounted or open? see the unmount messages above)", dev->name,
			 dev->kernel_name, strerror(-r));
	else
		log_info(kind_done_text(dev->kind), dev->name);
	return r;
}

/* A device is tried once in a run: one that failed is not tried again,
 * and one whose removal worked but still shows is not removed twice. */
static void mark_tried(struct stackdown_set *set, char tried[][32], size_t n_tried)
{
	for (size_t i = 0; i < set->len; i++)
		for (size_t j = 0; j < n_tried; j++)
			if (strcmp(set->devs[i].kernel_name, tried[j]) == 0)
				set->devs[i].done = true;
}

int stackdown_run(void)
{
	static char tried[STACKDOWN_DEV_MAX][32];
	size_t n_tried = 0;
	struct stackdown_set set;
	int left = 0;

	while (n_tried < STACKDOWN_DEV_MAX) {
		int i;

		if (stackdown_scan("/sys", &set) < 0)
			return -1;
		mark_tried(&set, tried, n_tried);
		i = stackdown_next(&set);
		if (i < 0)
			break;
		(void)stack_dev_take_down(&set.devs[i]);
		snprintf(tried[n_tried++], sizeof(tried[0]), "%s", set.devs[i].kernel_name);
	}
	if (stackdown_scan("/sys", &set) == 0)
		left = (int)set.len;
	return left;
}
