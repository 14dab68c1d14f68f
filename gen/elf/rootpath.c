/* rootpath: look up paths inside a system tree (a sysroot) as if it were "/". */
#include "gen/elf/rootpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* As the kernel's limit on symlinks followed in one lookup. */
#define ROOTPATH_MAX_LINKS 40

bool rootpath_is_host(const char *root)
{
	return !root || root[0] == '\0' || strcmp(root, "/") == 0;
}

static int root_prefix_len(const char *root)
{
	size_t n;

	if (rootpath_is_host(root))
		return 0;
	n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	return n > PATH_MAX ? PATH_MAX : (int)n;
}

int rootpath_host(const char *root, const char *path, char *out, size_t size)
{
	int n = snprintf(out, size, "%.*s%s", root_prefix_len(root), root ? root : "", path);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* The lookup in progress: the resolved part (no symlinks left in it) and
 * what is still to walk. */
struct walk {
	const char *root;
	char done[PATH_MAX];
	size_t done_len;
	char todo[PATH_MAX];
	int links;
};

static void walk_up(struct walk *w)
{
	while (w->done_len > 0 && w->done[w->done_len - 1] != '/')
		w->done_len--;
	if (w->done_len > 0)
		w->done_len--;
	w->done[w->done_len] = '\0';
}

/* Replace the component just appended, a symlink, by its target followed by
 * the rest of the path. */
static int walk_follow(struct walk *w, size_t comp_start, const char *host, const char *rest)
{
	char target[PATH_MAX], next[PATH_MAX];
	ssize_t n;
	int len;

	if (++w->links > ROOTPATH_MAX_LINKS)
		return -ELOOP;
	n = readlink(host, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	len = snprintf(next, sizeof(next), "%s/%s", target, rest);
	if (len < 0 || (size_t)len >= sizeof(next))
		return -ENAMETOOLONG;
	memcpy(w->todo, next, (size_t)len + 1);
	w->done_len = target[0] == '/' ? 0 : comp_start;
	w->done[w->done_len] = '\0';
	return 0;
}

/* Append one component and look at what it is on disk. *rest is where the
 * walk continues; it moves to the start of todo when a symlink is followed. */
static int walk_step(struct walk *w, const char *comp, size_t len, const char **rest)
{
	size_t start = w->done_len;
	char host[PATH_MAX];
	struct stat st;
	int r;

	if (start + 1 + len >= sizeof(w->done))
		return -ENAMETOOLONG;
	w->done[start] = '/';
	memcpy(w->done + start + 1, comp, len);
	w->done_len = start + 1 + len;
	w->done[w->done_len] = '\0';
	r = rootpath_host(w->root, w->done, host, sizeof(host));
	if (r < 0)
		return r;
	if (lstat(host, &st) < 0)
		return -errno;
	if (!S_ISLNK(st.st_mode))
		return 0;
	r = walk_follow(w, start, host, *rest);
	*rest = w->todo;
	return r;
}

/* Walk the component at *p ("." and ".." handled by name, as the kernel
 * does after the symlinks before them are resolved). */
static int walk_next(struct walk *w, const char **p)
{
	size_t len = strcspn(*p, "/");
	char comp[NAME_MAX + 1];
	const char *rest = *p + len;
	int r;

	if (len == 1 && (*p)[0] == '.') {
		*p = rest;
		return 0;
	}
	if (len == 2 && (*p)[0] == '.' && (*p)[1] == '.') {
		walk_up(w);
		*p = rest;
		return 0;
	}
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	/* Copied: walk_step may rewrite todo, where *p points. */
	memcpy(comp, *p, len);
	r = walk_step(w, comp, len, &rest);
	*p = rest;
	return r;
}

int rootpath_resolve(const char *root, const char *path, char *out, size_t size)
{
	struct walk w = { .root = root };
	const char *p = w.todo;
	int n;

	if (path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= sizeof(w.todo))
		return -ENAMETOOLONG;
	strcpy(w.todo, path);
	for (;;) {
		int r;

		p += strspn(p, "/");
		if (*p == '\0')
			break;
		r = walk_next(&w, &p);
		if (r < 0)
			return r;
	}
	n = snprintf(out, size, "%s", w.done_len ? w.done : "/");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int rootpath_open(const char *root, const char *path, int flags)
{
	char inside[PATH_MAX], host[PATH_MAX];
	int r = rootpath_resolve(root, path, inside, sizeof(inside));
	int fd;

	if (r == 0)
		r = rootpath_host(root, inside, host, sizeof(host));
	if (r < 0)
		return r;
	fd = open(host, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
