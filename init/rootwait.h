/* rootwait: load drivers as devices appear until the root device shows up. */
#ifndef LIFEBOAT_ROOTWAIT_H
#define LIFEBOAT_ROOTWAIT_H

#include <stddef.h>

#include "init/rootspec.h"

struct found_dev {
	char devname[64];       /* "vda1": the node is /dev/DEVNAME */
	unsigned int major, minor;
	struct blk_info info;
};

/* The device number of /dev/NAME, from /sys/class/block/NAME/dev ("MAJ:MIN").
 * Returns 0 or -errno, -EINVAL when it does not read as MAJ:MIN. */
int block_devnum(const char *name, unsigned int *major, unsigned int *minor);
/* The first line of /sys/class/block/NAME/ATTR, without its newline, into
 * buf. Returns 0, -errno when it cannot be opened, -EIO when it is empty. */
int block_attr_read(const char *name, const char *attr, char *buf, size_t size);
/* Coldplug (on the first wait), then follow kernel uevents (loading what
 * each new device needs) until a block device matches spec or timeout_sec passes (0: no deadline).
 * Returns 0 with *found filled, -ETIMEDOUT, or another -errno. */
int device_wait(const struct root_spec *spec, unsigned int timeout_sec, struct found_dev *found);
/* device_wait for the root device. */
int rootwait(const struct root_spec *spec, unsigned int timeout_sec, struct found_dev *found);

#endif
