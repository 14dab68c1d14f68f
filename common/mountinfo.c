/* mountinfo: parse /proc/self/mountinfo lines (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   id parent MAJ:MIN root mountpoint options [optional fields...] - type source superoptions
 * Fields are separated by one space; the kernel escapes a space, tab,
 * newline or backslash inside a field as \ooo, so a field never holds a
 * blank and the lone "-" that ends the optional fields cannot be a path. */
#include "common/mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Undo the kernel's octal escapes in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Cut the next field at *p (just past the blank before it): returns it
 * NUL-terminated, or NULL at the end of the line. An empty field (two
 * blanks in a row) is not something the kernel writes: NULL too. */
static char *field_next(char **p)
{
	char *s = *p, *end;

	if (*s == '\0' || *s == '\n' || *s == ' ')
		return NULL;
	end = s + strcspn(s, " \n");
	*p = end;
	if (*end) {
		*end = '\0';
		*p = end + 1;
	}
	return s;
}

/* A decimal number up to end; no sscanf: it would pull glibc's scanf and
 * locale code into the way out's static program (120 KiB, measured). */
static int parse_uint(const char *s, const char *end, unsigned int *out)
{
	unsigned long v = 0;

	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > 0xffffffffUL / 10)
			return -EINVAL;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > 0xffffffffUL)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int parse_majmin(const char *field, struct mountinfo_entry *out)
{
	const char *colon = strchr(field, ':');

	if (!colon || parse_uint(field, colon, &out->major) < 0 ||
	    parse_uint(colon + 1, colon + strlen(colon), &out->minor) < 0)
		return -EINVAL;
	return 0;
}

int mountinfo_parse_line(char *line, struct mountinfo_entry *out)
{
	char *p = line, *f[6], *opt;

	for (int i = 0; i < 6; i++)     /* id parent MAJ:MIN root mountpoint options */
		if (!(f[i] = field_next(&p)))
			return -EINVAL;
	if (parse_majmin(f[2], out) < 0)
		return -EINVAL;
	while ((opt = field_next(&p)) && strcmp(opt, "-") != 0)
		;                       /* optional fields: shared:1, master:2, ... */
	if (!opt || !(out->fstype = field_next(&p)) || !(out->source = field_next(&p)))
		return -EINVAL;
	out->root = f[3];
	out->path = f[4];
	out->options = f[5];
	unescape(f[3]);
	unescape(f[4]);
	unescape((char *)out->source);
	return 0;
}

static int walk_line(char *line, mountinfo_fn fn, void *ctx)
{
	struct mountinfo_entry m;

	if (mountinfo_parse_line(line, &m) < 0)
		return 0;
	return fn(&m, ctx);
}

int mountinfo_walk(const char *text, size_t len, mountinfo_fn fn, void *ctx)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);
		/* Whole lines, however long: a mount point may be 4095 bytes. */
		char *line = strndup(text, n);
		int r;

		if (!line)
			return -ENOMEM;
		r = walk_line(line, fn, ctx);
		free(line);
		if (r != 0)
			return r;
		text += n + (nl ? 1 : 0);
	}
	return 0;
}

/* Lines are read whole with getline: a line cut by a fixed buffer once
 * hid its block device (the rest, read as a line of its own, had no
 * MAJ:MIN where one was expected). */
int mountinfo_walk_file(const char *path, mountinfo_fn fn, void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f)
		return -errno;
	while (r == 0 && getline(&line, &cap, f) >= 0)
		r = walk_line(line, fn, ctx);
	free(line);
	fclose(f);
	return r;
}

bool mountinfo_is_block(const struct mountinfo_entry *m)
{
	return m->major != 0 || strncmp(m->source, "/dev/", 5) == 0;
}
