/* mountlist: parse mountinfo (proc(5)) into the mounts under a directory. */
#include "shutdown/mountlist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileread.h"

#define MOUNTINFO_MAX (256 * 1024)

/* Copy the field at *p (up to a blank) into out, turning mountinfo's octal
 * escapes (\040 for a space, \134 for a backslash) back into bytes; with
 * out NULL, only step over it. Returns -EINVAL when the field is empty or
 * does not fit. */
static int field_take(const char **p, char *out, size_t size)
{
	const char *s = *p + strspn(*p, " ");
	size_t n = 0;

	while (*s && *s != ' ' && *s != '\n') {
		char c = *s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (out && n + 1 >= size)
			return -EINVAL;
		if (out)
			out[n] = c;
		n++;
	}
	*p = s;
	if (n == 0)
		return -EINVAL;
	if (out)
		out[n] = '\0';
	return 0;
}

static int under_prefix(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int mountlist_parse_line(const char *line, const char *prefix, struct mount_entry *out)
{
	const char *p = line;
	const char *sep;

	/* mount ID, parent ID, major:minor, root: not needed. */
	for (int i = 0; i < 4; i++)
		if (field_take(&p, NULL, 0) < 0)
			return -EINVAL;
	if (field_take(&p, out->path, sizeof(out->path)) < 0)
		return -EINVAL;
	/* The optional fields end at a lone "-". */
	sep = strstr(p, " - ");
	if (!sep)
		return -EINVAL;
	p = sep + 3;
	if (field_take(&p, out->fstype, sizeof(out->fstype)) < 0 ||
	    field_take(&p, out->source, sizeof(out->source)) < 0)
		return -EINVAL;
	return under_prefix(out->path, prefix) ? 0 : -ENOENT;
}

static size_t path_depth(const char *path)
{
	size_t depth = 0;

	for (; *path; path++)
		depth += *path == '/';
	return depth;
}

/* Deepest first; of two at the same depth (one mounted over the other,
 * or siblings), the one mounted later first. */
static void order_for_unmount(struct mount_list *list)
{
	for (size_t i = 1; i < list->len; i++) {
		struct mount_entry e = list->items[i];
		size_t d = path_depth(e.path);
		size_t j = i;

		while (j > 0 && path_depth(list->items[j - 1].path) <= d) {
			list->items[j] = list->items[j - 1];
			j--;
		}
		list->items[j] = e;
	}
}

int mountlist_parse(const char *text, const char *prefix, struct mount_list *out)
{
	int r = 0;

	out->len = 0;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		/* Whole lines, however long (a bind of a deep directory has a
		 * long root field). A mount point longer than MOUNTLIST_PATH_MAX
		 * is not listed: its parent is then detached as the last resort. */
		char *line = strndup(text, len);

		if (!line)
			return -ENOMEM;
		if (mountlist_parse_line(line, prefix, &out->items[out->len]) == 0) {
			if (out->len + 1 < MOUNTLIST_MAX)
				out->len++;
			else
				r = -E2BIG;
		}
		free(line);
		text += len + (nl ? 1 : 0);
	}
	order_for_unmount(out);
	return r;
}

int mountlist_read(const char *prefix, struct mount_list *out)
{
	char *text = NULL;
	size_t len;
	int r = file_read_all("/proc/self/mountinfo", MOUNTINFO_MAX, &text, &len);

	out->len = 0;
	if (r < 0)
		return r;
	r = mountlist_parse(text, prefix, out);
	free(text);
	return r;
}
