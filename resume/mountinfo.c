/* mountinfo: whether a filesystem on a block device is mounted already.
 *
 * A line of /proc/self/mountinfo (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   id parent MAJ:MIN root mountpoint options [optional fields...] - type source superoptions
 * Pseudo filesystems (proc, sysfs, tmpfs, devtmpfs) have major 0 and a
 * source that is not a /dev/ path. btrfs has major 0 too, hence the source.
 */
#include "resume/mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy the space-separated field starting at p; returns what follows it. */
static const char *copy_field(const char *p, char *dst, size_t size)
{
	size_t n = 0;

	while (*p == ' ')
		p++;
	for (; *p && *p != ' ' && *p != '\n'; p++)
		if (n + 1 < size)
			dst[n++] = *p;
	if (size)
		dst[n] = '\0';
	return p;
}

bool mountinfo_line_is_block(const char *line, char *where, size_t where_size,
			     char *source, size_t source_size)
{
	char field[256], type[64];
	unsigned int major = 0, minor = 0;
	const char *sep = strstr(line, " - ");
	const char *p = line;

	if (!sep || where_size == 0 || source_size == 0)
		return false;
	p = copy_field(p, field, sizeof(field));      /* mount id */
	p = copy_field(p, field, sizeof(field));      /* parent id */
	p = copy_field(p, field, sizeof(field));      /* MAJ:MIN */
	if (sscanf(field, "%u:%u", &major, &minor) != 2)
		return false;
	p = copy_field(p, field, sizeof(field));      /* root */
	copy_field(p, where, where_size);             /* mount point */
	p = copy_field(sep + 3, type, sizeof(type));
	copy_field(p, source, source_size);
	return major != 0 || strncmp(source, "/dev/", 5) == 0;
}

/* Lines are read whole: a mount point may be 4095 bytes, and a line cut
 * by a fixed buffer hid its block device (the rest, read as a line of its
 * own, has no MAJ:MIN where one is expected). */
int mountinfo_find_block(const char *path, char *what, size_t size)
{
	char *line = NULL, where[256], source[256];
	size_t cap = 0;
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && getline(&line, &cap, f) >= 0) {
		if (mountinfo_line_is_block(line, where, sizeof(where), source, sizeof(source))) {
			snprintf(what, size, "%s on %s", source, where);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}
