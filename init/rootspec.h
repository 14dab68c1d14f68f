/* rootspec: what root= names, and whether a block device is it. */
#ifndef LIFEBOAT_ROOTSPEC_H
#define LIFEBOAT_ROOTSPEC_H

#include <stdbool.h>

#include "init/blkprobe.h"

enum root_kind {
	ROOT_PATH,       /* /dev/vda1 */
	ROOT_LABEL,      /* LABEL=, /dev/disk/by-label/ */
	ROOT_UUID,       /* UUID=, /dev/disk/by-uuid/ */
	ROOT_PARTUUID,   /* PARTUUID=, /dev/disk/by-partuuid/ */
	ROOT_PARTLABEL,  /* PARTLABEL=, /dev/disk/by-partlabel/ */
	ROOT_DEVNUM,     /* MAJ:MIN */
};

struct root_spec {
	enum root_kind kind;
	char value[256];
	unsigned int major, minor;
};

/* Parse root=. Returns 0, -EINVAL for an empty or malformed value. */
int root_spec_parse(const char *root, struct root_spec *out);
/* Whether the block device (its /dev name without "/dev/", and number) is
 * the one spec names; info is probed lazily by the caller and may be NULL for
 * kinds that need no probe. */
bool root_spec_matches(const struct root_spec *spec, const char *devname,
		       unsigned int major, unsigned int minor, const struct blk_info *info);
/* Whether matching needs the device's probed identity. */
bool root_spec_needs_probe(const struct root_spec *spec);
/* "UUID=..." etc., for messages. */
const char *root_kind_name(enum root_kind kind);

#endif
