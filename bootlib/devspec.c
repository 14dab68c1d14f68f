/* devspec: what a device spec (root=, resume=, a key device) names, and whether a block device is it. */
#include "bootlib/devspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bootlib/blockattr.h"

struct root_prefix {
	const char *prefix;
	enum devspec_kind kind;
};

/* The tag forms and the udev symlinks that stand for them: without udev in
 * the image there are no /dev/disk links, so the link is read as its tag. */
static const struct root_prefix prefixes[] = {
	{ "LABEL=",                   DEVSPEC_LABEL },
	{ "UUID=",                    DEVSPEC_UUID },
	{ "PARTUUID=",                DEVSPEC_PARTUUID },
	{ "PARTLABEL=",               DEVSPEC_PARTLABEL },
	{ "/dev/disk/by-label/",      DEVSPEC_LABEL },
	{ "/dev/disk/by-uuid/",       DEVSPEC_UUID },
	{ "/dev/disk/by-partuuid/",   DEVSPEC_PARTUUID },
	{ "/dev/disk/by-partlabel/",  DEVSPEC_PARTLABEL },
};

static const char *const kind_names[] = {
	[DEVSPEC_PATH] = "path", [DEVSPEC_LABEL] = "LABEL", [DEVSPEC_UUID] = "UUID",
	[DEVSPEC_PARTUUID] = "PARTUUID", [DEVSPEC_PARTLABEL] = "PARTLABEL",
	[DEVSPEC_DEVNUM] = "MAJ:MIN",
};

const char *devspec_kind_name(enum devspec_kind kind)
{
	return kind_names[kind];
}

static int set_value(struct dev_spec *out, enum devspec_kind kind, const char *v)
{
	if (!*v || strlen(v) >= sizeof(out->value))
		return -EINVAL;
	out->kind = kind;
	strcpy(out->value, v);
	return 0;
}

static int parse_devnum(const char *root, struct dev_spec *out)
{
	const char *p = root;
	char *end;
	unsigned long maj, min;

	maj = strtoul(p, &end, 10);
	if (end == p || *end != ':')
		return -EINVAL;
	p = end + 1;
	min = strtoul(p, &end, 10);
	if (end == p || *end || maj > 4095 || min > 1048575)
		return -EINVAL;
	out->major = (unsigned int)maj;
	out->minor = (unsigned int)min;
	return set_value(out, DEVSPEC_DEVNUM, root);
}

int devspec_parse(const char *root, struct dev_spec *out)
{
	memset(out, 0, sizeof(*out));
	if (!root || !*root)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].prefix);

		if (strncmp(root, prefixes[i].prefix, n) == 0)
			return set_value(out, prefixes[i].kind, root + n);
	}
	if (strncmp(root, "/dev/", 5) == 0)
		return set_value(out, DEVSPEC_PATH, root + 5);
	return parse_devnum(root, out);
}

bool devspec_needs_probe(const struct dev_spec *spec)
{
	return spec->kind != DEVSPEC_PATH && spec->kind != DEVSPEC_DEVNUM;
}

bool devspec_matches(const struct dev_spec *spec, const char *devname,
		       unsigned int major, unsigned int minor, const struct blk_info *info)
{
	switch (spec->kind) {
	case DEVSPEC_PATH:
		return strcmp(spec->value, devname) == 0 ||
		       blockattr_dm_path_matches(spec->value, devname);
	case DEVSPEC_DEVNUM:
		return spec->major == major && spec->minor == minor;
	case DEVSPEC_LABEL:
		return info && strcmp(spec->value, info->label) == 0;
	case DEVSPEC_PARTLABEL:
		return info && strcmp(spec->value, info->partlabel) == 0;
	/* UUIDs are hex: users and tools differ in case. */
	case DEVSPEC_UUID:
		return info && strcasecmp(spec->value, info->uuid) == 0;
	case DEVSPEC_PARTUUID:
		return info && strcasecmp(spec->value, info->partuuid) == 0;
	}
	return false;
}
