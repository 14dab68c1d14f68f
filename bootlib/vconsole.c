/* vconsole: loading the image's binary keymap with KDSKBENT.
 *
 * The init does this itself instead of carrying loadkeys: the keymap was
 * compiled on the build host, so all that is left is a loop of ioctls
 * (common/bkeymap.h has the format). */
#include "bootlib/vconsole.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/bkeymap.h"
#include "common/fileread.h"
#include "common/layout.h"

#define VCONSOLE_KEYMAP_MAX (BKEYMAP_MAGIC_LEN + BKEYMAP_TABLES * (1 + BKEYMAP_KEYS * 2))

int vconsole_vt_open(void)
{
	static const char *const paths[] = { "/dev/tty0", "/dev/console" };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int fd = open(paths[i], O_RDWR | O_NOCTTY | O_CLOEXEC);
		char type;

		if (fd < 0)
			continue;
		if (ioctl(fd, KDGKBTYPE, &type) == 0)
			return fd;
		close(fd);
	}
	return -ENOTTY;
}

static int set_entry(unsigned int table, unsigned int key, uint16_t value, void *ctx)
{
	struct kbentry e = { .kb_table = (unsigned char)table, .kb_index = (unsigned char)key,
			     .kb_value = value };

	return ioctl(*(int *)ctx, KDSKBENT, &e) < 0 ? -errno : 0;
}

/* Hand a checked keymap to the kernel. */
static int keymap_apply(const char *name, const char *path, const unsigned char *map,
			size_t len, char *why, size_t size)
{
	int fd = vconsole_vt_open();
	int r;

	if (fd < 0) {
		snprintf(why, size, "rd.vconsole.keymap=%s: the kernel has no virtual terminal "
			 "(a serial console keeps the sending terminal's layout)", name);
		return fd;
	}
	r = bkeymap_foreach(map, len, set_entry, &fd);
	if (r < 0)
		snprintf(why, size, "loading the keymap %s into the kernel (KDSKBENT) failed: "
			 "%s; the keyboard keeps the kernel's layout", path, strerror(-r));
	close(fd);
	return r;
}

/* Longer names are not made by the generator (gen/host/kbdhost.h). */
#define VCONSOLE_NAME_MAX 128

int vconsole_file_read(const struct vconsole_file *kind, const char *name, char *path,
		       size_t path_size, char **data, size_t *len, char *why, size_t size)
{
	int r;

	if (!bkeymap_name_ok(name) || strlen(name) >= VCONSOLE_NAME_MAX) {
		snprintf(why, size, "%s=%.*s is not a %s name; give the name the image was built "
			 "with (lifeboat ls IMAGE lists %s)", kind->param, VCONSOLE_NAME_MAX, name,
			 kind->option, kind->dir);
		return -EINVAL;
	}
	snprintf(path, path_size, "%s/%s%s", kind->dir, name, kind->suffix);
	r = file_read_all(path, kind->max, data, len);
	if (r < 0) {
		snprintf(why, size, "%s=%s: the image has no %s (%s); rebuild it with --%s %s",
			 kind->param, name, path, strerror(-r), kind->option, name);
		return r == -EFBIG ? -EINVAL : r;
	}
	return 0;
}

int vconsole_keymap_load(const char *name, char *why, size_t size)
{
	static const struct vconsole_file keymap = {
		"rd.vconsole.keymap", "keymap", LAYOUT_KEYMAP_DIR, LAYOUT_KEYMAP_SUFFIX,
		VCONSOLE_KEYMAP_MAX,
	};
	char path[VCONSOLE_PATH_MAX];
	char *map;
	size_t len;
	int r = vconsole_file_read(&keymap, name, path, sizeof(path), &map, &len, why, size);

	if (r < 0)
		return r;
	if (bkeymap_check((const unsigned char *)map, len) < 0) {
		snprintf(why, size, "%s is not a binary keymap (loadkeys -b); rebuild the image", path);
		r = -EINVAL;
	} else {
		r = keymap_apply(name, path, (const unsigned char *)map, len, why, size);
	}
	free(map);
	return r;
}
