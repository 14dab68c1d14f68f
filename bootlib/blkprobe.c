/* blkprobe: a block device's filesystem and partition identity, via libblkid. */
#include "bootlib/blkprobe.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_value(blkid_probe pr, const char *name, char *dst, size_t size)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		snprintf(dst, size, "%s", v);
}

int blkprobe_dev(const char *devname, struct blk_info *info)
{
	char path[128];
	blkid_probe pr;
	int r;

	memset(info, 0, sizeof(*info));
	snprintf(path, sizeof(path), "/dev/%s", devname);
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_TYPE);
	/* Partition entry details give PARTUUID/PARTLABEL of a partition from
	 * its parent's table. */
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	r = blkid_do_safeprobe(pr);
	if (r == 0) {
		copy_value(pr, "TYPE", info->type, sizeof(info->type));
		copy_value(pr, "LABEL", info->label, sizeof(info->label));
		copy_value(pr, "UUID", info->uuid, sizeof(info->uuid));
	}
	if (r >= 0) {
		copy_value(pr, "PART_ENTRY_UUID", info->partuuid, sizeof(info->partuuid));
		copy_value(pr, "PART_ENTRY_NAME", info->partlabel, sizeof(info->partlabel));
	}
	blkid_free_probe(pr);
	return r < 0 && r != -2 ? -EIO : 0;
}

int blkprobe_list(FILE *out)
{
	struct dirent **names;
	int n = scandir("/sys/class/block", &names, NULL, versionsort);
	int count = 0;

	for (int i = 0; i < n; i++) {
		struct blk_info info;
		const char *dev = names[i]->d_name;

		if (dev[0] != '.') {
			count++;
			if (blkprobe_dev(dev, &info) < 0)
				fprintf(out, "  /dev/%s (unreadable)\n", dev);
			else
				fprintf(out, "  /dev/%s TYPE=\"%s\" LABEL=\"%s\" UUID=\"%s\" "
					"PARTUUID=\"%s\" PARTLABEL=\"%s\"\n", dev, info.type,
					info.label, info.uuid, info.partuuid, info.partlabel);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
	return count;
}
