/* fstab: find the real root's fstab entry of one mount point, and read
 * its device and options as the initramfs mounts them. */
#include "bootlib/fstab.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileread.h"
#include "common/hexdigit.h"

static bool is_blank(char c)
{
	/* \r: a file written on another system still reads as its lines. */
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *skip_blank(const char *s, const char *end)
{
	while (s < end && is_blank(*s))
		s++;
	return s;
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* One field from *s up to a blank or end, its \ooo escapes (fstab(5):
 * \040 a space, \011 a tab) decoded, into out. Returns false when it did
 * not fit (out then holds its start; the rest is skipped). */
static bool field_take(const char **s, const char *end, char *out, size_t size)
{
	const char *p = *s;
	size_t n = 0;
	bool fits = true;

	while (p < end && !is_blank(*p)) {
		char c = *p++;

		if (c == '\\' && end - p >= 3 && p[0] <= '3' && is_octal(p[0]) &&
		    is_octal(p[1]) && is_octal(p[2])) {
			c = (char)(((p[0] - '0') << 6) | ((p[1] - '0') << 3) | (p[2] - '0'));
			p += 3;
		}
		if (n + 1 < size)
			out[n++] = c;
		else
			fits = false;
	}
	out[n] = '\0';
	*s = p;
	return fits;
}

/* A dump or pass number: digits only, else 0 (fstab(5)'s default). */
static unsigned int number_take(const char **s, const char *end)
{
	char num[16];
	char *stop;
	unsigned long v;

	*s = skip_blank(*s, end);
	if (!field_take(s, end, num, sizeof(num)) || !num[0] || num[0] == '-' || num[0] == '+')
		return 0;
	v = strtoul(num, &stop, 10);
	return *stop || v > 1000 ? 0 : (unsigned int)v;
}

/* One line into e. Returns 1 for an entry, 0 for a blank line, a comment
 * or a line with no mount point that fits, -1 for an entry one of whose
 * other fields did not fit. */
static int line_parse(const char *s, const char *end, struct fstab_entry *e)
{
	bool fits;

	memset(e, 0, sizeof(*e));
	s = skip_blank(s, end);
	if (s == end || *s == '#')
		return 0;
	fits = field_take(&s, end, e->spec, sizeof(e->spec));
	s = skip_blank(s, end);
	if (!field_take(&s, end, e->dir, sizeof(e->dir)) || !e->dir[0])
		return 0;
	s = skip_blank(s, end);
	fits = field_take(&s, end, e->type, sizeof(e->type)) && fits;
	s = skip_blank(s, end);
	fits = field_take(&s, end, e->opts, sizeof(e->opts)) && fits;
	e->freq = number_take(&s, end);
	e->passno = number_take(&s, end);
	if (!e->type[0])
		snprintf(e->type, sizeof(e->type), "auto");
	if (!e->opts[0])
		snprintf(e->opts, sizeof(e->opts), "defaults");
	return fits ? 1 : -1;
}

/* path without its repeated and trailing slashes ("/" stays), into out. */
static void path_norm(const char *path, char *out, size_t size)
{
	size_t n = 0;

	for (; *path && n + 1 < size; path++)
		if (!(*path == '/' && n && out[n - 1] == '/'))
			out[n++] = *path;
	if (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
}

/* Whether path names dir: "/usr/" and "//usr" are "/usr". */
static bool same_path(const char *path, const char *dir)
{
	char a[FSTAB_FIELD_MAX], b[FSTAB_FIELD_MAX];

	path_norm(path, a, sizeof(a));
	path_norm(dir, b, sizeof(b));
	return strcmp(a, b) == 0;
}

int fstab_find(const char *text, size_t len, const char *dir, struct fstab_entry *out)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		int r = line_parse(p, line_end, out);

		if (r != 0 && same_path(out->dir, dir))
			return r < 0 ? -ENAMETOOLONG : 0;
		p = nl ? nl + 1 : end;
	}
	memset(out, 0, sizeof(*out));
	return -ENOENT;
}

int fstab_find_file(const char *path, const char *dir, struct fstab_entry *out)
{
	char *text;
	size_t len;
	int r = file_read_all(path, FSTAB_FILE_MAX, &text, &len);

	if (r < 0) {
		memset(out, 0, sizeof(*out));
		return r;
	}
	r = fstab_find(text, len, dir, out);
	free(text);
	return r;
}

/* The words of fstab's options that are for mount(8) or systemd only. */
static bool option_userspace(const char *word, size_t len)
{
	static const char *const words[] = {
		"defaults", "auto", "noauto", "nofail", "_netdev", "user", "nouser",
		"users", "owner", "group",
	};
	static const char *const prefixes[] = { "comment=", "x-", "X-" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && strncmp(word, words[i], len) == 0)
			return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (len >= strlen(prefixes[i]) && strncmp(word, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

int fstab_options_kernel(const char *opts, char *out, size_t size)
{
	size_t used = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	out[0] = '\0';
	while (*opts) {
		size_t len = strcspn(opts, ",");

		if (len && !option_userspace(opts, len)) {
			if (used + len + (used ? 1 : 0) >= size)
				return -ENAMETOOLONG;
			if (used)
				out[used++] = ',';
			memcpy(out + used, opts, len);
			used += len;
			out[used] = '\0';
		}
		opts += len;
		if (*opts == ',')
			opts++;
	}
	return 0;
}

static const char *const spec_tags[] = { "LABEL=", "UUID=", "PARTUUID=", "PARTLABEL=" };
static const char *const spec_links[] = {
	"/dev/disk/by-label/", "/dev/disk/by-uuid/", "/dev/disk/by-partuuid/",
	"/dev/disk/by-partlabel/",
};

static const char *prefix_of(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(s, list[i], strlen(list[i])) == 0)
			return list[i];
	return NULL;
}

/* udev writes a label's unsafe bytes as \xHH in its link's name ("my
 * disk" is by-label/my\x20disk): the label itself is compared. */
static void link_unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		int hi = s[0] == '\\' && s[1] == 'x' ? hexdigit_value(s[2]) : -1;
		int lo = hi >= 0 ? hexdigit_value(s[3]) : -1;

		if (lo >= 0 && (hi || lo)) {
			*w++ = (char)(hi << 4 | lo);
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* TAG="value" (or 'value'), as mount(8) takes it, without the quotes. */
static void tag_unquote(char *s, const char *tag)
{
	char *v = s + strlen(tag);
	size_t n = strlen(v);

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
}

int fstab_spec_parse(const char *spec, struct dev_spec *out)
{
	char s[FSTAB_FIELD_MAX];
	const char *tag = prefix_of(spec, spec_tags, sizeof(spec_tags) / sizeof(spec_tags[0]));
	const char *link = prefix_of(spec, spec_links, sizeof(spec_links) / sizeof(spec_links[0]));

	memset(out, 0, sizeof(*out));
	if (strlen(spec) >= sizeof(s))
		return -EINVAL;
	snprintf(s, sizeof(s), "%s", spec);
	if (!tag && strncmp(s, "/dev/", 5) != 0)
		return -ENOTBLK;
	if (!link && strncmp(s, "/dev/disk/", 10) == 0)
		return -EOPNOTSUPP;
	if (tag)
		tag_unquote(s, tag);
	if (link && strstr(link, "label"))
		link_unescape(s + strlen(link));
	return devspec_parse(s, out) < 0 ? -EINVAL : 0;
}
