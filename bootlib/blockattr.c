/* blockattr: what sysfs says of a block device (/sys/class/block/NAME/...). */
#include "bootlib/blockattr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/dmname.h"
#include "common/fileread.h"

int blockattr_read(const char *name, const char *attr, char *buf, size_t size)
{
	char path[192];

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", name, attr);
	return file_read_line(path, buf, size);
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
