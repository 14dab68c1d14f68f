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

/* Who else follows the block devices the waits see: the block stacks
 * (blockstack/) assemble LUKS, LVM and md as their members appear. The
 * wait calls added() for every block device it sees (again on "change"),
 * and settled() when no event came for a while. */
struct devwait_observer {
	void (*added)(const char *devname);
	void (*settled)(void);
};

/* Register the one observer (NULL: none). */
void devwait_observe(const struct devwait_observer *obs);
/* Coldplug (on the first wait), then follow kernel uevents (loading what
 * each new device needs) until a block device matches spec or timeout_sec
 * passes (0: no deadline). Returns 0 with *found filled, -ETIMEDOUT, or
 * another -errno. */
int devwait_find(const struct dev_spec *spec, unsigned int timeout_sec, struct found_dev *found);

#endif
