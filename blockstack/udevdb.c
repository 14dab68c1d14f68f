/* udevdb: write udev's database entries of the assembled dm and md devices,
 * and make their /dev/mapper names the links udev makes. */
#include "blockstack/udevdb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/blockattr.h"
#include "bootlib/clock.h"
#include "common/filewrite.h"

/* What 55-dm.rules imports from the entry of a device on a replayed "add":
 * the primary-source flag makes it a device libdevmapper set up and udev
 * saw (DM_ACTIVATION=1, links, blkid); the rules' version is what the
 * rules that saw it would have stored beside it. */
static const char *const dm_props[] = {
	"DM_UDEV_PRIMARY_SOURCE_FLAG=1",
	"DM_UDEV_RULES_VSN=2",
};
/* What 69-lvm.rules stored for an md array that holds a physical volume
 * once the array was running, and reads back on a replayed "add". */
static const char md_pv_prop[] = "LVM_MD_PV_ACTIVATED=1";

int udevdb_format(const struct udevdb_entry *e, char *buf, size_t size)
{
	size_t len;
	int n = snprintf(buf, size, "I:%" PRIu64 "\n", e->usec);

	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	len = (size_t)n;
	for (size_t i = 0; i < e->n_props; i++) {
		n = snprintf(buf + len, size - len, "E:%s\n", e->props[i]);
		if (n < 0 || (size_t)n >= size - len)
			return -ENOSPC;
		len += (size_t)n;
	}
	n = snprintf(buf + len, size - len, "V:1\n");
	if (n < 0 || (size_t)n >= size - len)
		return -ENOSPC;
	return (int)(len + (size_t)n);
}

static int make_dirs(const char *dir)
{
	char path[256];

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* path's content is text, its mode 01644 (fchmod: the umask would drop
 * the sticky bit). */
static int write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	int r;

	if (fd < 0)
		return -errno;
	r = fchmod(fd, 01644) < 0 ? -errno : file_write_fd(fd, text, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int udevdb_write(const char *dir, const struct udevdb_entry *e)
{
	char text[512], path[320], tmp[330];
	int len = udevdb_format(e, text, sizeof(text));
	int r;

	if (len < 0)
		return len;
	r = make_dirs(dir);
	if (r < 0)
		return r;
	if (snprintf(path, sizeof(path), "%s/b%u:%u", dir, e->major, e->minor) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	snprintf(tmp, sizeof(tmp), "%s/.b%u:%u.tmp", dir, e->major, e->minor);
	r = write_file(tmp, text, (size_t)len);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

/* A whole md array (mdN), not one of its partitions (mdNpM). */
static bool is_md_array(const char *devname)
{
	if (strncmp(devname, "md", 2) != 0 || !devname[2])
		return false;
	return strspn(devname + 2, "0123456789") == strlen(devname + 2);
}

/* The array runs: md's array_state is neither empty, clear nor inactive. */
static bool md_running(const char *devname)
{
	char state[64];

	return blockattr_read(devname, "md/array_state", state, sizeof(state)) == 0 &&
	       strcmp(state, "clear") != 0 && strcmp(state, "inactive") != 0;
}

int udevdb_entry_for(const char *devname, udevdb_is_pv_fn is_pv, struct udevdb_entry *e)
{
	e->n_props = 0;
	if (strncmp(devname, "dm-", 3) == 0) {
		for (size_t i = 0; i < sizeof(dm_props) / sizeof(dm_props[0]); i++)
			e->props[e->n_props++] = dm_props[i];
	} else if (is_md_array(devname) && md_running(devname) && is_pv(devname)) {
		e->props[e->n_props++] = md_pv_prop;
	} else {
		return 0;
	}
	return blockattr_devnum(devname, &e->major, &e->minor) < 0 ? -ENODEV : 1;
}

int udevdb_mapper_link(const char *devdir, const char *devname, const struct udevdb_entry *e)
{
	char name[128], path[300], tmp[320], target[64];
	struct stat st;

	/* device-mapper names are at most 127 bytes and have no '/'. */
	if (blockattr_read(devname, "dm/name", name, sizeof(name)) < 0 || strchr(name, '/'))
		return 0;
	snprintf(path, sizeof(path), "%s/mapper/%s", devdir, name);
	if (lstat(path, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != makedev(e->major, e->minor))
		return 0;
	snprintf(target, sizeof(target), "../%s", devname);
	snprintf(tmp, sizeof(tmp), "%s/mapper/.%s.link", devdir, name);
	unlink(tmp);
	if (symlink(target, tmp) < 0)
		return -errno;
	if (rename(tmp, path) < 0) {
		int r = -errno;

		unlink(tmp);
		return r;
	}
	return 1;
}

int udevdb_leave(const char *dir, const char *devdir, udevdb_is_pv_fn is_pv, uint64_t usec,
		 char *failed, size_t failed_size)
{
	DIR *d = opendir(UDEVDB_SYSBLOCK);
	struct dirent *de;
	int n = 0, r = 0;

	if (!d) {
		r = -errno;
		snprintf(failed, failed_size, "%s", UDEVDB_SYSBLOCK);
		return r;
	}
	while (r >= 0 && (de = readdir(d))) {
		struct udevdb_entry e = { .usec = usec };

		if (de->d_name[0] == '.')
			continue;
		r = udevdb_entry_for(de->d_name, is_pv, &e);
		if (r > 0)
			r = udevdb_write(dir, &e);
		if (r == 0 && strncmp(de->d_name, "dm-", 3) == 0)
			r = udevdb_mapper_link(devdir, de->d_name, &e);
		if (r < 0)
			snprintf(failed, failed_size, "/dev/%s", de->d_name);
		else if (e.n_props)
			n++;
	}
	closedir(d);
	return r < 0 ? r : n;
}

static bool probe_is_pv(const char *devname)
{
	struct blk_info info;

	return blkprobe_dev(devname, &info) == 0 && strcmp(info.type, "LVM2_member") == 0;
}

int udevdb_leave_stacks(char *failed, size_t failed_size)
{
	return udevdb_leave(UDEVDB_DIR, "/dev", probe_is_pv, clock_now_ms() * 1000, failed, failed_size);
}
