/* mountlist: the mounts under a directory, from common/mountinfo.c, in
 * their unmount order. */
#include "shutdown/mountlist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mountinfo.h"

static int under_prefix(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static int copy_out(char *dst, size_t size, const char *src)
{
	return (size_t)snprintf(dst, size, "%s", src) < size ? 0 : -ENAMETOOLONG;
}

int mountlist_entry_from(const struct mountinfo_entry *m, const char *prefix,
			 struct mount_entry *out)
{
	if (!under_prefix(m->path, prefix))
		return -ENOENT;
	if (copy_out(out->path, sizeof(out->path), m->path) < 0 ||
	    copy_out(out->fstype, sizeof(out->fstype), m->fstype) < 0 ||
	    copy_out(out->source, sizeof(out->source), m->source) < 0)
		return -ENAMETOOLONG;
	return 0;
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

struct collect {
	const char *prefix;
	struct mount_list *list;
	int r;
};

static int collect_one(const struct mountinfo_entry *m, void *ctx)
{
	struct collect *c = ctx;
	struct mount_list *list = c->list;

	/* A mount point longer than MOUNTLIST_PATH_MAX is not listed: its
	 * parent is then detached as the last resort. */
	if (mountlist_entry_from(m, c->prefix, &list->items[list->len]) < 0)
		return 0;
	if (list->len + 1 < MOUNTLIST_MAX)
		list->len++;
	else
		c->r = -E2BIG;
	return 0;
}

/* The walk's end, both ways: children before their parents. */
static int collected(struct collect *c, int r)
{
	order_for_unmount(c->list);
	return r < 0 ? r : c->r;
}

int mountlist_parse(const char *text, const char *prefix, struct mount_list *out)
{
	struct collect c = { prefix, out, 0 };
	int r;

	out->len = 0;
	r = mountinfo_walk(text, text ? strlen(text) : 0, collect_one, &c);
	return collected(&c, r);
}

int mountlist_read(const char *prefix, struct mount_list *out)
{
	struct collect c;
	int r;

	out->len = 0;
	c = (struct collect){ prefix, out, 0 };
	r = mountinfo_walk_file("/proc/self/mountinfo", collect_one, &c);
	return collected(&c, r);
}
