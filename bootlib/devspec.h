/* devspec: what a device spec (root=, resume=, a key device) names. */
#ifndef LIFEBOAT_BOOTLIB_DEVSPEC_H
#define LIFEBOAT_BOOTLIB_DEVSPEC_H

#include <stdbool.h>

#include "bootlib/blkprobe.h"

enum devspec_kind {
	DEVSPEC_PATH,       /* /dev/vda1 */
	DEVSPEC_LABEL,      /* LABEL=, /dev/disk/by-label/ */
	DEVSPEC_UUID,       /* UUID=, /dev/disk/by-uuid/ */
	DEVSPEC_PARTUUID,   /* PARTUUID=, /dev/disk/by-partuuid/ */
	DEVSPEC_PARTLABEL,  /* PARTLABEL=, /dev/disk/by-partlabel/ */
	DEVSPEC_DEVNUM,     /* MAJ:MIN */
};

struct dev_spec {
	enum devspec_kind kind;
	char value[256];
	unsigned int major, minor;
};

/* Parse root=. Returns 0, -EINVAL for an empty or malformed value. */
int devspec_parse(const char *root, struct dev_spec *out);
/* Whether the block device (its /dev name without "/dev/", and number) is
 * the one spec names; info is probed lazily by the caller and may be NULL for
 * kinds that need no probe. */
bool devspec_matches(const struct dev_spec *spec, const char *devname,
		       unsigned int major, unsigned int minor, const struct blk_info *info);
/* Whether matching needs the device's probed identity. */
bool devspec_needs_probe(const struct dev_spec *spec);
/* "UUID=..." etc., for messages. */
const char *devspec_kind_name(enum devspec_kind kind);

#endif
