/* blkprobe: a block device's filesystem and partition identity, via libblkid. */
#ifndef LIFEBOAT_BLKPROBE_H
#define LIFEBOAT_BLKPROBE_H

#include <stdio.h>

/* The labels are the disk's bytes (LABEL= matches them); the UUIDs are
 * escaped (common/termescape.h), which leaves every real one as it is. */
struct blk_info {
	char type[32];
	char label[128];
	char uuid[64];
	char partuuid[64];
	char partlabel[128];
};

/* Probe /dev/DEVNAME. Returns 0 (fields empty where unknown) or -errno when
 * the device cannot be opened or read. */
int blkprobe_dev(const char *devname, struct blk_info *info);

/* One device's line of blkprobe_list: "  /dev/NAME TYPE=\"...\" LABEL=..."
 * with every value escaped (common/termescape.h), as the disk chose it;
 * info NULL: "(unreadable)". */
void blkprobe_print(FILE *out, const char *devname, const struct blk_info *info);
/* The block devices present, one line each with TYPE, LABEL, UUID, PARTUUID
 * and PARTLABEL as blkid reads them (escaped), for diagnoses; returns how
 * many. */
int blkprobe_list(FILE *out);

#endif
