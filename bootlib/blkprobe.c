/* blkprobe: a block device's filesystem and partition identity, via libblkid. */
#include "bootlib/blkprobe.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/termescape.h"

static void copy_value(blkid_probe pr, const char *name, char *dst, size_t size)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		snprintf(dst, size, "%s", v);
}

/* A UUID is hex digits and dashes in every format, but LUKS keeps its own
 * as text the disk chose, which every unlock message then names: it is
 * kept escaped (common/termescape.h). A real UUID is unchanged, so is
 * matching UUID= against it. */
static void copy_uuid(blkid_probe pr, const char *name, char *dst, size_t size)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		term_escape(dst, size, v, strlen(v), TERM_ESCAPE_QUOTE);
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
		copy_uuid(pr, "UUID", info->uuid, sizeof(info->uuid));
	}
	if (r >= 0) {
		copy_uuid(pr, "PART_ENTRY_UUID", info->partuuid, sizeof(info->partuuid));
		copy_value(pr, "PART_ENTRY_NAME", info->partlabel, sizeof(info->partlabel));
	}
	blkid_free_probe(pr);
	return r < 0 && r != -2 ? -EIO : 0;
}

/* One NAME="VALUE" field, escaped: a label is whatever the disk says, and
 * the disk may be anyone's stick. (UUIDs are escaped when probed.) */
static void field_print(FILE *out, const char *name, const char *value)
{
	char shown[4 * sizeof(((struct blk_info *)0)->label) + 1];

	term_escape(shown, sizeof(shown), value, strlen(value), TERM_ESCAPE_QUOTE);
	fprintf(out, " %s=\"%s\"", name, shown);
}

void blkprobe_print(FILE *out, const char *devname, const struct blk_info *info)
{
	char dev[4 * 64 + 1];

	term_escape(dev, sizeof(dev), devname, strlen(devname), 0);
	fprintf(out, "  /dev/%s", dev);
	if (!info) {
		fputs(" (unreadable)\n", out);
		return;
	}
	field_print(out, "TYPE", info->type);
	field_print(out, "LABEL", info->label);
	fprintf(out, " UUID=\"%s\" PARTUUID=\"%s\"", info->uuid, info->partuuid);
	field_print(out, "PARTLABEL", info->partlabel);
	fputc('\n', out);
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
			blkprobe_print(out, dev, blkprobe_dev(dev, &info) < 0 ? NULL : &info);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
	return count;
}
