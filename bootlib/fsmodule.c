/* fsmodule: the module of a filesystem type, by its fs-TYPE alias first. */
#include "bootlib/fsmodule.h"

#include <errno.h>
#include <stdio.h>

#include "bootlib/modload.h"

/* A type is a short word ("ext4", "btrfs"); a longer one names no module. */
#define FSMODULE_TYPE_MAX 64

/* The filesystem module may be reachable only through its fs-TYPE alias
 * (ext2 and ext3 are served by ext4, whose file is ext4.ko), or be named
 * like the type without the alias. */
static int load_by(const char *type, int (*load)(const char *name))
{
	char alias[FSMODULE_TYPE_MAX + sizeof("fs-")];
	int r;

	if (snprintf(alias, sizeof(alias), "fs-%s", type) >= (int)sizeof(alias))
		return -ENAMETOOLONG;
	r = load(alias);
	return r == -ENOENT ? load(type) : r;
}

int fsmodule_load(const char *type)
{
	return load_by(type, modload_name);
}

int fsmodule_load_background(const char *type)
{
	return load_by(type, modload_background);
}
