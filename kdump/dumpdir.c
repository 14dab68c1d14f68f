/* dumpdir: the dump's own directory, made fresh where no other user can
 * change it (kdump/dumpdir.h says why). */
#include "kdump/dumpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* The directories on the way, as seen when opened. Their owners are
 * checked once the owner of the capture's own files is known: root, or
 * on NFS whom the server maps root to. */
struct way {
	size_t n;
	struct {
		uid_t uid;
		mode_t mode;
		size_t path_end;        /* its path: the first path_end bytes of SUBDIR */
	} dir[DUMPDIR_DEPTH_MAX + 1];
};

static void refuse(struct dumpdir *d, const char *subdir, size_t path_end, uid_t uid, mode_t mode)
{
	snprintf(d->refused, sizeof(d->refused), "%.*s", (int)path_end, subdir);
	d->refused_uid = uid;
	d->refused_mode = mode & 07777;
}

static int way_add(struct way *w, int fd, size_t path_end)
{
	struct stat st;

	if (w->n > DUMPDIR_DEPTH_MAX)
		return -ENAMETOOLONG;
	if (fstat(fd, &st) < 0)
		return -errno;
	w->dir[w->n].uid = st.st_uid;
	w->dir[w->n].mode = st.st_mode;
	w->dir[w->n].path_end = path_end;
	w->n++;
	return 0;
}

/* The next component of *p into comp; false at the end. */
static bool next_component(const char **p, char *comp, size_t size, int *r)
{
	size_t len;

	while (**p == '/')
		(*p)++;
	len = strcspn(*p, "/");
	if (len == 0)
		return false;
	if (len >= size)
		*r = -ENAMETOOLONG;
	else if (len == 2 && (*p)[0] == '.' && (*p)[1] == '.')
		*r = -EINVAL;
	snprintf(comp, size, "%.*s", (int)len, *p);
	*p += len;
	return *r == 0;
}

/* Open the directory comp in parent, made 0700 if missing; a symlink is
 * not followed (-ELOOP). Returns the fd or -errno. */
static int step_into(int parent, const char *comp)
{
	int fd;

	if (mkdirat(parent, comp, 0700) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(parent, comp, DIR_FLAGS);
	return fd < 0 ? -errno : fd;
}

/* MNT/SUBDIR, step by step, each step seen into w. Returns its fd or -errno. */
static int open_way(struct dumpdir *d, const char *mnt, const char *subdir, struct way *w)
{
	char comp[256];
	const char *p = subdir;
	int fd = open(mnt, DIR_FLAGS), r;

	if (fd < 0)
		return -errno;
	r = way_add(w, fd, 0);
	while (r == 0 && next_component(&p, comp, sizeof(comp), &r)) {
		int next = step_into(fd, comp);

		if (next < 0) {
			refuse(d, subdir, (size_t)(p - subdir), 0, 0);
			r = next;
			break;
		}
		close(fd);
		fd = next;
		r = way_add(w, fd, (size_t)(p - subdir));
	}
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* mkdir must succeed: a directory of that name is someone else's (or an
 * earlier capture's), never reused. */
static int make_fresh(struct dumpdir *d, const char *name)
{
	for (int i = 0; i < DUMPDIR_TRIES; i++) {
		int n = i ? snprintf(d->name, sizeof(d->name), "%s-%d", name, i)
			  : snprintf(d->name, sizeof(d->name), "%s", name);

		if (n < 0 || (size_t)n >= sizeof(d->name))
			return -ENAMETOOLONG;
		if (mkdirat(d->parent, d->name, 0700) == 0) {
			d->made = true;
			d->fd = openat(d->parent, d->name, DIR_FLAGS);
			return d->fd < 0 ? -errno : 0;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Whom the capture's own files belong to here (*self): root, or on NFS
 * the user a root-squashing server maps root to. -EPERM if the directory
 * just made is not what mkdir made (someone put theirs in its place). */
static int self_owner(const struct dumpdir *d, struct stat *st, uid_t *self)
{
	struct statfs sfs;

	if (fstat(d->fd, st) < 0 || fstatfs(d->fd, &sfs) < 0)
		return -errno;
	/* Its mode is not checked: a filesystem without modes (vfat) shows
	 * the mount's; only a parent others can change lets them swap it. */
	if (!S_ISDIR(st->st_mode) || (st->st_uid != geteuid() && sfs.f_type != NFS_SUPER_MAGIC))
		return -EPERM;
	*self = st->st_uid;
	return 0;
}

/* Another user could rename, replace or fill it: not the owner's (root's,
 * or the capture's), or writable by group or others without the sticky
 * bit (which keeps them from renaming what they do not own). */
static bool dir_shared(uid_t uid, mode_t mode, uid_t self)
{
	return (uid != 0 && uid != self) ||
	       ((mode & (S_IWGRP | S_IWOTH)) && !(mode & S_ISVTX));
}

static int check_way(struct dumpdir *d, const struct way *w, const char *subdir)
{
	struct stat st;
	uid_t self = 0;
	int r = self_owner(d, &st, &self);

	if (r == -EPERM) {
		size_t end = w->dir[w->n - 1].path_end;

		snprintf(d->refused, sizeof(d->refused), "%.*s/%s", (int)end, subdir, d->name);
		d->refused_uid = st.st_uid;
		d->refused_mode = st.st_mode & 07777;
		return r;
	}
	for (size_t i = 0; r == 0 && i < w->n; i++)
		if (dir_shared(w->dir[i].uid, w->dir[i].mode, self)) {
			refuse(d, subdir, w->dir[i].path_end, w->dir[i].uid, w->dir[i].mode);
			r = -EPERM;
		}
	return r;
}

int dumpdir_make(struct dumpdir *d, const char *mnt, const char *subdir, const char *name)
{
	struct way w = { .n = 0 };
	int r;

	memset(d, 0, sizeof(*d));
	d->parent = d->fd = -1;
	if (!name[0] || strchr(name, '/'))
		return -EINVAL;
	d->parent = open_way(d, mnt, subdir, &w);
	if (d->parent < 0)
		return d->parent;
	r = make_fresh(d, name);
	if (r == 0)
		r = check_way(d, &w, subdir);
	if (r < 0) {
		dumpdir_remove(d);
		dumpdir_close(d);
	}
	return r;
}

void dumpdir_remove(struct dumpdir *d)
{
	if (d->parent >= 0 && d->made)
		unlinkat(d->parent, d->name, AT_REMOVEDIR);
}

void dumpdir_close(struct dumpdir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	if (d->parent >= 0)
		close(d->parent);
	d->fd = d->parent = -1;
}
