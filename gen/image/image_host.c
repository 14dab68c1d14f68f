/* image_host: add a host path as it resolves, recreating each symlink on the way. */
#include "gen/image/image.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "gen/gen_report.h"

/* Symlinks followed for one path, as the kernel's own limit. */
#define HOST_MAX_LINKS 40

/* The walk: done is the resolved host prefix (no symlinks in it, "" for
 * the root), rest the components still to walk. */
struct host_walk {
	char done[PATH_MAX];
	char rest[PATH_MAX];
	int links;
};

/* Pop the first component of w->rest into comp; false when none is left. */
static bool component_pop(struct host_walk *w, char *comp, size_t size)
{
	char *p = w->rest;
	size_t len;

	while (*p == '/')
		p++;
	len = strcspn(p, "/");
	if (len == 0)
		return false;
	snprintf(comp, size, "%.*s", (int)len, p);
	memmove(w->rest, p + len, strlen(p + len) + 1);
	return true;
}

static bool rest_empty(const struct host_walk *w)
{
	return w->rest[strspn(w->rest, "/")] == '\0';
}

/* A symlink at w->done + "/" + name: recreate it, continue at its target. */
static int link_follow(struct image *img, struct host_walk *w, const char *path, const char *at)
{
	char target[PATH_MAX], rest[PATH_MAX];
	ssize_t n = readlink(at, target, sizeof(target) - 1);
	int err;

	if (n < 0) {
		err = -errno;
		gen_error("cannot add %s to the image: reading the symlink %s: %s", path, at, strerror(-err));
		return err;
	}
	target[n] = '\0';
	if (++w->links > HOST_MAX_LINKS) {
		gen_error("cannot add %s to the image: too many symlinks (a loop?) at %s", path, at);
		return -ELOOP;
	}
	err = image_add_symlink(img, at, target);
	if (err < 0)
		return err;
	if (snprintf(rest, sizeof(rest), "%s/%s", target, w->rest) >= (int)sizeof(rest)) {
		gen_error("cannot add %s to the image: the path through %s is too long", path, at);
		return -ENAMETOOLONG;
	}
	memcpy(w->rest, rest, sizeof(rest));
	if (target[0] == '/')
		w->done[0] = '\0';
	return 0;
}

/* The last component, not a symlink: add it as what it is. */
static int leaf_add(struct image *img, const char *path, const char *at, const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return image_add_file(img, at, at, 0);
	if (S_ISDIR(st->st_mode))
		return image_add_dir(img, at, st->st_mode & 07777);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return image_add_node(img, at, st->st_mode, major(st->st_rdev), minor(st->st_rdev));
	gen_error("cannot add %s to the image: %s is a fifo or socket, not a file", path, at);
	return -EINVAL;
}

/* One component of the walk. */
static int component_walk(struct image *img, struct host_walk *w, const char *path, const char *comp)
{
	char at[PATH_MAX];
	struct stat st;
	int err;

	if (strcmp(comp, ".") == 0)
		return 0;
	if (strcmp(comp, "..") == 0) {
		/* done has no symlinks, so ".." is lexical there. */
		char *slash = strrchr(w->done, '/');

		if (slash)
			*slash = '\0';
		return 0;
	}
	if (snprintf(at, sizeof(at), "%s/%s", w->done, comp) >= (int)sizeof(at)) {
		gen_error("cannot add %s to the image: the path is too long", path);
		return -ENAMETOOLONG;
	}
	if (lstat(at, &st) < 0) {
		err = -errno;
		gen_error("cannot add %s to the image: %s: %s", path, at, strerror(-err));
		return err;
	}
	if (S_ISLNK(st.st_mode))
		return link_follow(img, w, path, at);
	if (rest_empty(w))
		err = leaf_add(img, path, at, &st);
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	else
		err = 0;
	if (err == -ENOTDIR)
		gen_error("cannot add %s to the image: %s is not a directory", path, at);
	memcpy(w->done, at, sizeof(at));
	return err;
}

int image_add_host_path(struct image *img, const char *path)
{
	struct host_walk w = { .done = "" };
	char comp[NAME_MAX + 1];
	int err = 0;

	if (path[0] != '/' || strlen(path) >= sizeof(w.rest)) {
		gen_error("cannot add %s to the image: give an absolute host path", path);
		return -EINVAL;
	}
	strcpy(w.rest, path);
	while (err == 0 && component_pop(&w, comp, sizeof(comp)))
		err = component_walk(img, &w, path, comp);
	return err;
}
