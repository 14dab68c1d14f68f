/* devwait: load drivers as devices appear until a wanted block device shows up. */
#ifndef LIFEBOAT_BOOTLIB_DEVWAIT_H
#define LIFEBOAT_BOOTLIB_DEVWAIT_H

#include "bootlib/blkprobe.h"
#include "bootlib/devspec.h"

struct found_dev {
	char devname[64];       /* "vda1": the node is /dev/DEVNAME */
	unsigned int major, minor;
	struct blk_info info;
};

/* Coldplug (on the first wait), then follow kernel uevents through the
 * event loop (bootlib/evloop.h: loading what each new device needs,
 * offering block devices to its observer) until a block device matches spec or timeout_sec
 * passes after the coldplug (0: no deadline). Returns 0 with *found filled, -ETIMEDOUT, or
 * another -errno. */
int devwait_find(const struct dev_spec *spec, unsigned int timeout_sec, struct found_dev *found);
/* The block device spec names among those that exist now (in
 * /sys/class/block), without waiting or loading anything. Returns 0 with
 * *found filled, or -ENODEV. */
int devwait_lookup(const struct dev_spec *spec, struct found_dev *found);
/* Devices skip says are not to be matched, whatever they show: the paths
 * of a multipath LUN, which show the map's UUIDs (blockstack/mpath.h).
 * NULL: none. */
void devwait_set_skip(bool (*skip)(const char *devname));

#endif
