/* blockattr: what sysfs says of a block device (/sys/class/block/NAME/...). */
#ifndef LIFEBOAT_BOOTLIB_BLOCKATTR_H
#define LIFEBOAT_BOOTLIB_BLOCKATTR_H

#include <stdbool.h>
#include <stddef.h>

/* The first line of /sys/class/block/NAME/ATTR, without its newline, into
 * buf. Returns 0, -errno when it cannot be opened, -EIO when it is empty. */
int blockattr_read(const char *name, const char *attr, char *buf, size_t size);
/* The device number of /dev/NAME, from /sys/class/block/NAME/dev ("MAJ:MIN").
 * Returns 0 or -errno, -EINVAL when it does not read as MAJ:MIN. */
int blockattr_devnum(const char *name, unsigned int *major, unsigned int *minor);
/* Whether a path below /dev ("mapper/NAME" or "VG/LV") names the
 * device-mapper device devname ("dm-0"), by its dm/name. */
bool blockattr_dm_path_matches(const char *path, const char *devname);

#endif
