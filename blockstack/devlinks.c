/* devlinks: /dev/disk/by-* links for the devices the init sees. */
#include "blockstack/devlinks.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool devlinks_encode(const char *value, char *out, size_t size)
{
	static const char safe[] = "#+-.:=@_";
	size_t n = 0;

	for (; *value; value++) {
		unsigned char c = (unsigned char)*value;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || (c && strchr(safe, c));

		if (n + (plain ? 1 : 4) >= size)
			return false;
		if (plain)
			out[n++] = (char)c;
		else
			n += (size_t)snprintf(out + n, size - n, "\\x%02x", c);
	}
	out[n] = '\0';
	return n > 0 && strcmp(out, ".") != 0 && strcmp(out, "..") != 0;
}

/* dir/sub/NAME -> ../../DEVNAME, replacing what is there. */
static int link_one(const char *dir, const char *sub, const char *value, const char *devname)
{
	char name[512], path[1024], target[128];

	if (!value[0] || !devlinks_encode(value, name, sizeof(name)))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	snprintf(target, sizeof(target), "../../%s", devname);
	if (unlink(path) < 0 && errno != ENOENT)
		return -errno;
	return symlink(target, path) < 0 ? -errno : 0;
}

int devlinks_add(const char *dir, const char *devname, const struct blk_info *info)
{
	const struct { const char *sub, *value; } links[] = {
		{ "by-label", info->label },       { "by-uuid", info->uuid },
		{ "by-partuuid", info->partuuid }, { "by-partlabel", info->partlabel },
	};
	int first = 0;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		int r = link_one(dir, links[i].sub, links[i].value, devname);

		if (r < 0 && !first)
			first = r;
	}
	return first;
}
