/* devlinks: udev's /dev/disk/by-label, by-uuid, by-partuuid and
 * by-partlabel links, made for the block devices the init sees when the
 * image's crypttab names a keyscript: Debian's keyscripts (passdev's
 * DEVICE:PATH) name their devices that way, and the image has no udev.
 * lifeboat's own words read such a path as its tag (bootlib/devspec.c). */
#ifndef LIFEBOAT_BLOCKSTACK_DEVLINKS_H
#define LIFEBOAT_BLOCKSTACK_DEVLINKS_H

#include <stdbool.h>
#include <stddef.h>

#include "bootlib/blkprobe.h"

#define DEVLINKS_DIR "/dev/disk"

/* A tag's value as udev spells it in a link's name (blkid's encoding):
 * letters, digits and #+-.:=@_ stay, every other byte is \xHH. Returns
 * false when it does not fit size or is empty. */
bool devlinks_encode(const char *value, char *out, size_t size);

/* The links of /dev/DEVNAME under dir (DEVLINKS_DIR at boot), pointing to
 * it; a link of another device with the same name is replaced, as udev
 * lets the last one win. Returns 0 or the first -errno. */
int devlinks_add(const char *dir, const char *devname, const struct blk_info *info);

#endif
