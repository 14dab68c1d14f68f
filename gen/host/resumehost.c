/* resumehost: find the host's resume device (gen/feature/resume_pack.c records it).
 *
 * A host-only image is built for this machine, so the swap it hibernates
 * to is known at build time: the kernel's own setting (/sys/power/resume,
 * written by the running system's initramfs or by systemd) when there is
 * one, else the largest swap partition in use. It is recorded by UUID, which
 * stays the same while the swap holds an image (libblkid reads it from the
 * swap header either way) and does not depend on probe order.
 */
#include "gen/host/resumehost.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "common/fileread.h"


/* /proc/swaps escapes blanks in paths as \040 (octal), like /proc/mounts. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

int resumehost_swaps_pick_largest(const char *text, char *path, size_t size)
{
	unsigned long long best = 0;
	const char *line = strchr(text, '\n');   /* the first line is the heading */
	int found = -ENOENT;

	while (line && *++line) {
		char name[512], type[32];
		unsigned long long kb;

		if (sscanf(line, "%511s %31s %llu", name, type, &kb) == 3 &&
		    strcmp(type, "partition") == 0 && (found < 0 || kb > best) &&
		    strlen(name) < size) {
			best = kb;
			strcpy(path, name);
			unescape(path);
			found = 0;
		}
		line = strchr(line, '\n');
	}
	return found;
}

static int read_small(const char *root, const char *name, char *buf, size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, name);
	return file_read_line(path, buf, size);
}

/* UUID=... of a swap (or hibernated swap) at path; -ENOENT when it has none. */
static int swap_uuid(const char *path, char *spec, size_t size)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL, *uuid = NULL;
	int r = -ENOENT;

	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID);
	if (blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 &&
	    blkid_probe_lookup_value(pr, "UUID", &uuid, NULL) == 0 && uuid &&
	    (strcmp(type, "swap") == 0 || strcmp(type, "swsuspend") == 0))
		r = snprintf(spec, size, "UUID=%s", uuid) < (int)size ? 0 : -ENAMETOOLONG;
	blkid_free_probe(pr);
	return r;
}

/* The kernel's setting: MAJ:MIN (+ offset), named by UUID where possible. */
static int from_sysfs(const char *root, struct resume_host *out)
{
	char buf[64], *name;
	unsigned int major, minor;

	if (read_small(root, "/sys/power/resume", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &major, &minor) != 2 || (major == 0 && minor == 0))
		return -ENOENT;
	if (read_small(root, "/sys/power/resume_offset", buf, sizeof(buf)) == 0)
		out->offset = strtoull(buf, NULL, 10);
	snprintf(out->from, sizeof(out->from), "/sys/power/resume");
	name = root[0] ? NULL : blkid_devno_to_devname(makedev(major, minor));
	if (!name || swap_uuid(name, out->spec, sizeof(out->spec)) < 0)
		snprintf(out->spec, sizeof(out->spec), "%u:%u", major, minor);
	free(name);
	return 0;
}

int resumehost_detect(const char *root, struct resume_host *out)
{
	char text[8192], path[512], swaps[512];
	size_t n;
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (from_sysfs(root, out) == 0)
		return 0;
	snprintf(swaps, sizeof(swaps), "%s/proc/swaps", root);
	f = fopen(swaps, "re");
	if (!f)
		return errno == ENOENT ? -ENOENT : -errno;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	if (resumehost_swaps_pick_largest(text, path, sizeof(path)) < 0)
		return -ENOENT;
	snprintf(out->from, sizeof(out->from), "/proc/swaps");
	return swap_uuid(path, out->spec, sizeof(out->spec));
}
