/* iscsi_lun: find an iSCSI session's LUN disks under /sys/class/iscsi_session. */
#include "net/iscsi/iscsi_lun.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileread.h"

bool iscsi_lun_session(const char *class, const char *target_name, char *session, size_t size)
{
	DIR *d = opendir(class);
	const struct dirent *de;
	bool found = false;

	while (d && !found && (de = readdir(d))) {
		char path[512], name[256];

		if (strncmp(de->d_name, "session", 7) != 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/targetname", class, de->d_name) >=
		    (int)sizeof(path))
			continue;
		if (file_read_text(path, 0, name, sizeof(name)) < 0)
			continue;
		name[strcspn(name, "\n")] = '\0';
		found = strcmp(name, target_name) == 0;
		if (found)
			snprintf(session, size, "%s", de->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* The LUN of a SCSI device directory name H:C:T:L; -1 when it is not one. */
static long long lun_of(const char *name)
{
	unsigned int h, c, t;
	unsigned long long l;
	int end = 0;

	if (sscanf(name, "%u:%u:%u:%llu%n", &h, &c, &t, &l, &end) != 4 || name[end])
		return -1;
	return (long long)(l & 0x7fffffffffffffffULL);
}

/* The first entry of dir/block/ (the disk's name). */
static int block_name(const char *dir, char *dev, size_t size)
{
	char path[1024];
	DIR *d;
	const struct dirent *de;
	int r = -ENOENT;

	if (snprintf(path, sizeof(path), "%s/block", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	d = opendir(path);
	while (d && r < 0 && (de = readdir(d)))
		if (de->d_name[0] != '.' && strlen(de->d_name) < size) {
			strcpy(dev, de->d_name);
			r = 0;
		}
	if (d)
		closedir(d);
	return r;
}

/* In one target directory, the wanted LUN's disk, or the lowest LUN's. */
static int target_scan(const char *tdir, bool lun_given, unsigned long long lun,
		       char *dev, size_t size, long long *best)
{
	DIR *d = opendir(tdir);
	const struct dirent *de;
	int r = -ENOENT;

	while (d && (de = readdir(d))) {
		char path[768], name[64];
		long long l = lun_of(de->d_name);

		if (l < 0 || (lun_given && (unsigned long long)l != lun) || (*best >= 0 && l >= *best))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", tdir, de->d_name) >= (int)sizeof(path) ||
		    block_name(path, name, sizeof(name)) < 0 || strlen(name) >= size)
			continue;
		strcpy(dev, name);
		*best = l;
		r = 0;
	}
	if (d)
		closedir(d);
	return r;
}

int iscsi_lun_disk(const char *class, const char *session, bool lun_given,
		   unsigned long long lun, char *dev, size_t size)
{
	char sdir[512];
	DIR *d;
	const struct dirent *de;
	long long best = -1;

	snprintf(sdir, sizeof(sdir), "%s/%s/device", class, session);
	d = opendir(sdir);
	while (d && (de = readdir(d))) {
		char tdir[768];

		if (strncmp(de->d_name, "target", 6) != 0)
			continue;
		if (snprintf(tdir, sizeof(tdir), "%s/%s", sdir, de->d_name) < (int)sizeof(tdir))
			target_scan(tdir, lun_given, lun, dev, size, &best);
	}
	if (d)
		closedir(d);
	return best >= 0 ? 0 : -ENOENT;
}
