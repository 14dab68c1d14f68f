/* luksname: the real root's names for the LUKS containers the boot opened
 * as luks-UUID (see luksname.h). */
#include "blockstack/luksname.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>

#include "bootlib/blockattr.h"
#include "bootlib/log.h"
#include "common/crypttab.h"
#include "common/fileread.h"

#define CRYPTTAB_MAX (64 * 1024)

bool luksname_dm_uuid_hex(const char *dm_uuid, char hex[33])
{
	const char *p = dm_uuid;

	/* cryptsetup's uuid: "CRYPT-" type "-" the UUID without its '-' "-" name. */
	if (strncmp(p, "CRYPT-LUKS", 10) != 0)
		return false;
	p = strchr(p + 10, '-');
	if (!p)
		return false;
	p++;
	for (int i = 0; i < 32; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return false;
		hex[i] = (char)tolower((unsigned char)p[i]);
	}
	hex[32] = '\0';
	return p[32] == '-';
}

bool luksname_is_default(const char *name, const char hex[33])
{
	return strncmp(name, "luks-", 5) == 0 && crypttab_uuid_equal(name + 5, hex);
}

bool luksname_from_crypttab(const char *text, const char hex[33], char *name, size_t size)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		char line[4 * CRYPTTAB_FIELD_MAX + 8], uuid[CRYPTTAB_FIELD_MAX];
		struct crypttab_entry e;

		snprintf(line, sizeof(line), "%.*s", (int)len, text);
		text += len + (text[len] == '\n');
		if (crypttab_parse_line(line, &e) != 1 ||
		    !crypttab_source_uuid(e.source, uuid, sizeof(uuid)) || !crypttab_uuid_equal(uuid, hex))
			continue;
		snprintf(name, size, "%s", e.name);
		return true;
	}
	return false;
}

static int dm_rename(const char *from, const char *to)
{
	struct {
		struct dm_ioctl io;
		char new_name[DM_NAME_LEN];
	} req;
	int fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.io.version[0] = DM_VERSION_MAJOR;
	req.io.data_size = sizeof(req);
	req.io.data_start = sizeof(req.io);
	snprintf(req.io.name, sizeof(req.io.name), "%s", from);
	snprintf(req.new_name, sizeof(req.new_name), "%s", to);
	if (ioctl(fd, DM_DEV_RENAME, &req) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* libdevmapper made /dev/mapper/NAME a node when the container opened (no
 * udev); the node of the old name goes, udevdb_leave makes the link of
 * the new one. Only a node of this very device is removed. */
static void drop_old_node(const char *old, const char *kname)
{
	char path[sizeof("/dev/mapper/") + DM_NAME_LEN];
	unsigned int maj, min;
	struct stat st;

	snprintf(path, sizeof(path), "/dev/mapper/%s", old);
	if (blockattr_devnum(kname, &maj, &min) == 0 && lstat(path, &st) == 0 &&
	    S_ISBLK(st.st_mode) && st.st_rdev == makedev(maj, min))
		unlink(path);
}

/* Rename dm device kname when the boot named it luks-UUID and crypttab
 * text names its container otherwise. Returns 1 when renamed, else 0. */
static int follow_one(const char *kname, const char *crypttab)
{
	char dm_uuid[DM_UUID_LEN], name[DM_NAME_LEN], want[CRYPTTAB_FIELD_MAX], hex[33];
	int r;

	if (blockattr_read(kname, "dm/uuid", dm_uuid, sizeof(dm_uuid)) < 0 ||
	    !luksname_dm_uuid_hex(dm_uuid, hex))
		return 0;
	if (blockattr_read(kname, "dm/name", name, sizeof(name)) < 0 || !luksname_is_default(name, hex) ||
	    !luksname_from_crypttab(crypttab, hex, want, sizeof(want)) || strcmp(want, name) == 0)
		return 0;
	r = strlen(want) < DM_NAME_LEN ? dm_rename(name, want) : -ENAMETOOLONG;
	if (r < 0) {
		log_warn("renaming /dev/mapper/%s to %s, the name the root's /etc/crypttab gives it, "
			 "failed (%s): the root's systemd-cryptsetup@%s may ask for the passphrase "
			 "again; give rd.luks.name=%s=%s", name, want, strerror(-r), want,
			 name + 5, want);
		return 0;
	}
	drop_old_node(name, kname);
	log_info("/dev/mapper/%s is now /dev/mapper/%s, as the root's /etc/crypttab names it",
		 name, want);
	return 1;
}

int luksname_follow_root(const char *sysroot)
{
	char path[256], *crypttab = NULL;
	size_t len;
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/etc/crypttab", sysroot);
	if (file_read_all(path, CRYPTTAB_MAX, &crypttab, &len) < 0)
		return 0;
	d = opendir("/sys/class/block");
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "dm-", 3) == 0)
			n += follow_one(e->d_name, crypttab);
	if (d)
		closedir(d);
	free(crypttab);
	return n;
}
