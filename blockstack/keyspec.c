/* keyspec: parse rd.luks.key=KEYPATH[:KEYDEV[:LUKSDEV]] and match it to a container. */
#include "blockstack/keyspec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* An absolute path without ".." parts: on KEYDEV it must stay inside the
 * mounted filesystem. */
static int path_check(const char *path, size_t len)
{
	if (len == 0 || path[0] != '/')
		return -EINVAL;
	if (len >= KEY_PATH_MAX)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < len; i++) {
		size_t end = i + 1;

		if (path[i] != '/')
			continue;
		while (end < len && path[end] != '/')
			end++;
		if (end - i == 3 && path[i + 1] == '.' && path[i + 2] == '.')
			return -EINVAL;
	}
	return 0;
}

/* One device field (without its ':' end) into spec. */
static int dev_parse(const char *field, size_t len, struct dev_spec *spec)
{
	char buf[sizeof(spec->value) + 32];

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, field, len);
	buf[len] = '\0';
	return devspec_parse(buf, spec);
}

int keyspec_parse(const char *value, struct luks_key *key)
{
	const char *dev = value ? strchr(value, ':') : NULL;
	const char *luks = dev ? strchr(dev + 1, ':') : NULL;
	size_t path_len = dev ? (size_t)(dev - value) : (value ? strlen(value) : 0);
	int r;

	memset(key, 0, sizeof(*key));
	if (!value || (luks && strchr(luks + 1, ':')))
		return -EINVAL;
	r = path_check(value, path_len);
	if (r < 0)
		return r;
	memcpy(key->path, value, path_len);
	key->path[path_len] = '\0';
	if (dev) {
		size_t len = luks ? (size_t)(luks - dev - 1) : strlen(dev + 1);

		key->has_keydev = len > 0;
		if (len > 0 && (r = dev_parse(dev + 1, len, &key->keydev)) < 0)
			return r;
	}
	if (luks) {
		key->has_luksdev = true;
		r = dev_parse(luks + 1, strlen(luks + 1), &key->luksdev);
		/* The container is known by its UUID and its node only. */
		if (r == 0 && key->luksdev.kind != DEVSPEC_UUID && key->luksdev.kind != DEVSPEC_PATH)
			r = -EINVAL;
	}
	return r;
}

bool keyspec_applies(const struct luks_key *key, const char *devname, const char *uuid)
{
	struct blk_info info;

	if (!key->has_luksdev)
		return true;
	memset(&info, 0, sizeof(info));
	snprintf(info.uuid, sizeof(info.uuid), "%s", uuid ? uuid : "");
	return devspec_matches(&key->luksdev, devname, 0, 0, &info);
}

void keyspec_dev_text(const struct dev_spec *spec, char *out, size_t size)
{
	if (spec->kind == DEVSPEC_PATH)
		snprintf(out, size, "/dev/%s", spec->value);
	else
		snprintf(out, size, "%s=%s", devspec_kind_name(spec->kind), spec->value);
}
