/* blockattr: what sysfs says of a block device (/sys/class/block/NAME/...). */
#include "bootlib/blockattr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/dmname.h"

int blockattr_read(const char *name, const char *attr, char *buf, size_t size)
{
	char path[192];
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", name, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		r = -EIO;
	fclose(f);
	return r;
}

int blockattr_devnum(const char *name, unsigned int *major, unsigned int *minor)
{
	char buf[32];
	int r = blockattr_read(name, "dev", buf, sizeof(buf));

	if (r < 0 && r != -EIO)
		return r;
	return r == 0 && sscanf(buf, "%u:%u", major, minor) == 2 ? 0 : -EINVAL;
}

bool blockattr_dm_path_matches(const char *path, const char *devname)
{
	char want[128], have[128];  /* device-mapper names are at most 127 bytes */

	if (strncmp(devname, "dm-", 3) != 0 || dmname_from_path(path, want, sizeof(want)) < 0)
		return false;
	return blockattr_read(devname, "dm/name", have, sizeof(have)) == 0 &&
	       strcmp(have, want) == 0;
}
