/* fstab: the real root's /etc/fstab (fstab(5)), read for what the
 * initramfs mounts besides the root: a /usr of its own. The file is the
 * real root's, outside input: every field is bounded and a line that does
 * not fit is never taken for another. */
#ifndef LIFEBOAT_BOOTLIB_FSTAB_H
#define LIFEBOAT_BOOTLIB_FSTAB_H

#include <stddef.h>

#include "bootlib/devspec.h"

#define FSTAB_FIELD_MAX 256
#define FSTAB_OPTS_MAX 512
/* More than any fstab holds: a larger one is refused (-EFBIG). */
#define FSTAB_FILE_MAX (256 * 1024)

/* One line, its \ooo escapes (\040 a space) decoded. A missing type is
 * "auto", missing options "defaults", a missing or unreadable dump or
 * pass number 0, as mount(8) and systemd read them. */
struct fstab_entry {
	char spec[FSTAB_FIELD_MAX];
	char dir[FSTAB_FIELD_MAX];
	char type[64];
	char opts[FSTAB_OPTS_MAX];
	unsigned int freq, passno;
};

/* The first entry of len bytes of fstab text whose mount point is dir
 * ("/usr"; "/usr/" and "//usr" are the same). Lines whose first field
 * begins with '#' and blank lines are skipped; noauto is not looked at
 * (the caller decides). Returns 0 with *out filled, -ENOENT when no entry
 * has that mount point, or -ENAMETOOLONG when its entry has a field too
 * long for out (it is not guessed at). */
int fstab_find(const char *text, size_t len, const char *dir, struct fstab_entry *out);
/* The same over the file path; -errno when it cannot be read (-ENOENT:
 * no fstab, as no entry; -EFBIG: past FSTAB_FILE_MAX bytes). */
int fstab_find_file(const char *path, const char *dir, struct fstab_entry *out);

/* opts without the words only mount(8) or systemd read (defaults, auto,
 * noauto, nofail, _netdev, user, users, owner, group, comment=..., x-...
 * and X-...), which a filesystem would refuse, into out. Returns 0, or
 * -ENAMETOOLONG when out is too small. */
int fstab_options_kernel(const char *opts, char *out, size_t size);

/* What an fstab's first field names, as a device spec (bootlib/devspec.h):
 * /dev/NAME, /dev/mapper/NAME, LABEL=, UUID=, PARTUUID=, PARTLABEL= (also
 * quoted: LABEL="my disk") and the /dev/disk/by-label, by-uuid,
 * by-partuuid and by-partlabel links. Returns 0, -ENOTBLK for what names
 * no block device (server:/export, tmpfs, a directory to bind), or
 * -EOPNOTSUPP for a /dev/disk/ link lifeboat cannot resolve without udev
 * (by-id, by-path). */
int fstab_spec_parse(const char *spec, struct dev_spec *out);

#endif
