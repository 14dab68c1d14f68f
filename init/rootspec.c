/* rootspec: what root= names, and whether a block device is it. */
#include "init/rootspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blockstack/blockstack.h"

struct root_prefix {
	const char *prefix;
	enum root_kind kind;
};

/* The tag forms and the udev symlinks that stand for them: without udev in
 * the image there are no /dev/disk links, so the link is read as its tag. */
static const struct root_prefix prefixes[] = {
	{ "LABEL=",                   ROOT_LABEL },
	{ "UUID=",                    ROOT_UUID },
	{ "PARTUUID=",                ROOT_PARTUUID },
	{ "PARTLABEL=",               ROOT_PARTLABEL },
	{ "/dev/disk/by-label/",      ROOT_LABEL },
	{ "/dev/disk/by-uuid/",       ROOT_UUID },
	{ "/dev/disk/by-partuuid/",   ROOT_PARTUUID },
	{ "/dev/disk/by-partlabel/",  ROOT_PARTLABEL },
};

static const char *const kind_names[] = {
	[ROOT_PATH] = "path", [ROOT_LABEL] = "LABEL", [ROOT_UUID] = "UUID",
	[ROOT_PARTUUID] = "PARTUUID", [ROOT_PARTLABEL] = "PARTLABEL",
	[ROOT_DEVNUM] = "MAJ:MIN",
};

const char *root_kind_name(enum root_kind kind)
{
	return kind_names[kind];
}

static int set_value(struct root_spec *out, enum root_kind kind, const char *v)
{
	if (!*v || strlen(v) >= sizeof(out->value))
		return -EINVAL;
	out->kind = kind;
	strcpy(out->value, v);
	return 0;
}

static int parse_devnum(const char *root, struct root_spec *out)
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
	return set_value(out, ROOT_DEVNUM, root);
}

int root_spec_parse(const char *root, struct root_spec *out)
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
		return set_value(out, ROOT_PATH, root + 5);
	return parse_devnum(root, out);
}

bool root_spec_needs_probe(const struct root_spec *spec)
{
	return spec->kind != ROOT_PATH && spec->kind != ROOT_DEVNUM;
}

bool root_spec_matches(const struct root_spec *spec, const char *devname,
		       unsigned int major, unsigned int minor, const struct blk_info *info)
{
	switch (spec->kind) {
	case ROOT_PATH:
		return strcmp(spec->value, devname) == 0 ||
		       blockstack_path_matches(spec->value, devname);
	case ROOT_DEVNUM:
		return spec->major == major && spec->minor == minor;
	case ROOT_LABEL:
		return info && strcmp(spec->value, info->label) == 0;
	case ROOT_PARTLABEL:
		return info && strcmp(spec->value, info->partlabel) == 0;
	/* UUIDs are hex: users and tools differ in case. */
	case ROOT_UUID:
		return info && strcasecmp(spec->value, info->uuid) == 0;
	case ROOT_PARTUUID:
		return info && strcasecmp(spec->value, info->partuuid) == 0;
	}
	return false;
}
