/* image: the entries of an initramfs by path, with implicit parents and symlinks
 * followed the way the kernel's unpacker will follow them. */
#include "gen/image/image.h"
#include "gen/image/image_entry.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/array.h"
#include "gen/gen_report.h"

/* Symlinks followed while placing one path, as the kernel's limit. */
#define IMAGE_MAX_LINKS 40

struct image *image_new(void)
{
	return calloc(1, sizeof(struct image));
}

static void entry_free(struct image_entry *e)
{
	free(e->path);
	free(e->src);
	free(e->data);
	free(e->target);
}

void image_free(struct image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->len; i++)
		entry_free(&img->entries[i]);
	free(img->entries);
	free(img->slots);
	free(img);
}

static const char *entry_kind(const struct image_entry *e)
{
	if (S_ISDIR(e->mode))
		return "directory";
	if (S_ISLNK(e->mode))
		return "symlink";
	if (S_ISREG(e->mode))
		return "regular file";
	return "device node";
}

/* --- paths ------------------------------------------------------------- */

int image_path_normalize(const char *in, char **out)
{
	size_t n = strlen(in);
	char *buf = malloc(n + 1);
	size_t len = 0;

	if (!buf)
		return -ENOMEM;
	while (*in) {
		size_t c = strcspn(in, "/");

		if (c == 2 && in[0] == '.' && in[1] == '.') {
			if (len == 0) {
				free(buf);
				return -EINVAL;
			}
			while (len > 0 && buf[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
		} else if (c > 0 && !(c == 1 && in[0] == '.')) {
			if (len > 0)
				buf[len++] = '/';
			memcpy(buf + len, in, c);
			len += c;
		}
		in += c;
		in += *in == '/';
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* --- the hash of paths ------------------------------------------------- */

static size_t path_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;   /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return (size_t)h;
}

static struct image_entry *entry_lookup(const struct image *img, const char *path)
{
	if (img->nslots == 0)
		return NULL;
	for (size_t i = path_hash(path) & (img->nslots - 1);; i = (i + 1) & (img->nslots - 1)) {
		size_t slot = img->slots[i];

		if (slot == 0)
			return NULL;
		struct image_entry *e = &img->entries[slot - 1];
		if (!e->dead && strcmp(e->path, path) == 0)
			return e;
	}
}

static void slot_insert(struct image *img, size_t index)
{
	size_t i = path_hash(img->entries[index].path) & (img->nslots - 1);

	while (img->slots[i] != 0)
		i = (i + 1) & (img->nslots - 1);
	img->slots[i] = index + 1;
}

/* Keep the table at most half full; dead entries are dropped on the way. */
static int slots_reserve(struct image *img)
{
	size_t n = img->nslots ? img->nslots : 64;

	if ((img->len + 1) * 2 <= img->nslots)
		return 0;
	while ((img->len + 1) * 2 > n)
		n *= 2;
	size_t *slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(img->slots);
	img->slots = slots;
	img->nslots = n;
	for (size_t i = 0; i < img->len; i++)
		if (!img->entries[i].dead)
			slot_insert(img, i);
	return 0;
}

/* Room for one more entry and its slot. */
static int entries_reserve(struct image *img)
{
	struct image_entry *p;

	if (slots_reserve(img) < 0)
		return -ENOMEM;
	p = array_grow(img->entries, &img->cap, img->len, sizeof(*p), 256);
	if (!p)
		return -ENOMEM;
	img->entries = p;
	return 0;
}

/* Append a copy of proto at path; path is taken over (freed on error). */
static int entry_append(struct image *img, const struct image_entry *proto, char *path)
{
	struct image_entry e = *proto;

	if (!path || entries_reserve(img) < 0) {
		free(path);
		return -ENOMEM;
	}
	e.path = path;
	e.dead = false;
	e.kind = img->kind;
	e.src = proto->src ? strdup(proto->src) : NULL;
	e.target = proto->target ? strdup(proto->target) : NULL;
	e.data = NULL;
	if (proto->data && (e.data = malloc(proto->size ? proto->size : 1)))
		memcpy(e.data, proto->data, proto->size);
	if ((proto->src && !e.src) || (proto->target && !e.target) || (proto->data && !e.data)) {
		entry_free(&e);
		return -ENOMEM;
	}
	img->entries[img->len] = e;
	slot_insert(img, img->len++);
	return 0;
}

/* --- placing an entry ---------------------------------------------------- */

static const struct image_entry implicit_dir = { .mode = S_IFDIR | 0755, .implicit = true };

/* path with its first `len` bytes replaced by a symlink's target, which is
 * relative to the link's directory; *out is normalized and malloc'd. */
static int link_substitute(const char *path, size_t len, const char *target, char **out)
{
	size_t dir = len;
	char *joined;
	int err;

	while (dir > 0 && path[dir - 1] != '/')
		dir--;
	if (target[0] == '/')
		dir = 0;
	if (asprintf(&joined, "%.*s/%s/%s", (int)dir, path, target, path[len] ? path + len + 1 : "") < 0)
		return -ENOMEM;
	err = image_path_normalize(joined, out);
	free(joined);
	return err;
}

/* One parent of a path being resolved: make it, pass it, or follow it.
 * Sets *next to the rewritten path when prefix is a symlink. */
static int parent_step(struct image *img, const char *cur, size_t len, bool create, char **next)
{
	char *prefix = strndup(cur, len);
	const struct image_entry *e;
	int err = 0;

	if (!prefix)
		return -ENOMEM;
	e = entry_lookup(img, prefix);
	if (!e && create) {
		err = entry_append(img, &implicit_dir, prefix);
		prefix = NULL;
	} else if (!e) {
		err = -ENOENT;
	} else if (S_ISLNK(e->mode)) {
		err = link_substitute(cur, len, e->target, next);
	} else if (!S_ISDIR(e->mode)) {
		err = -ENOTDIR;
	}
	free(prefix);
	return err;
}

/* Resolve the parents of a normalized path through the image's symlinks, as
 * the kernel's unpacker will when it creates the file; missing parents are
 * made implicit directories when create is set. *out is malloc'd. */
static int path_resolve(struct image *img, const char *path, bool create, char **out)
{
	char *cur = strdup(path);
	const char *slash;
	int links = 0;

	if (!cur)
		return -ENOMEM;
	for (size_t i = 0; (slash = strchr(cur + i, '/')); ) {
		char *next = NULL;
		int err = parent_step(img, cur, (size_t)(slash - cur), create, &next);

		if (err == 0 && next && ++links > IMAGE_MAX_LINKS)
			err = -ELOOP;
		if (err < 0) {
			free(next);
			free(cur);
			return err;
		}
		if (next) {
			free(cur);
			cur = next;
			i = 0;
		} else {
			i = (size_t)(slash - cur) + 1;
		}
	}
	*out = cur;
	return 0;
}

static int entry_place(struct image *img, const struct image_entry *proto, const char *dst);

/* Returned inside this file when the failure was already reported. */
#define ERR_REPORTED (-ECANCELED)

/* A directory so far only implied by its children becomes a symlink (say
 * /lib -> usr/lib on merged-/usr, after modules went to /lib/modules): its
 * children move to where the link points, so every path still resolves. */
static int dir_to_symlink(struct image *img, struct image_entry *dir, const struct image_entry *link)
{
	char *path = strdup(dir->path);
	size_t plen = strlen(dir->path), n = img->len;
	int err;

	if (!path)
		return -ENOMEM;
	dir->dead = true;
	err = entry_append(img, link, strdup(path));
	for (size_t i = 0; i < n && err == 0; i++) {
		struct image_entry *e = &img->entries[i];
		char *moved = NULL;

		if (e->dead || strncmp(e->path, path, plen) != 0 || e->path[plen] != '/')
			continue;
		struct image_entry copy = *e;   /* e may move as entries grow */
		e->dead = true;
		err = link_substitute(copy.path, plen, link->target, &moved);
		if (err == 0) {
			gen_info("moving /%s to /%s: /%s is now a symlink", copy.path, moved, path);
			err = entry_place(img, &copy, moved);
			if (err < 0)
				err = ERR_REPORTED;
		}
		free(moved);
	}
	free(path);
	return err;
}

static bool entry_same(const struct image_entry *a, const struct image_entry *b)
{
	if ((a->mode & S_IFMT) != (b->mode & S_IFMT))
		return false;
	if (S_ISREG(a->mode) && (a->src || b->src))
		return a->src && b->src && a->dev == b->dev && a->ino == b->ino;
	if (S_ISREG(a->mode))
		return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
	if (S_ISLNK(a->mode))
		return strcmp(a->target, b->target) == 0;
	if (S_ISCHR(a->mode) || S_ISBLK(a->mode))
		return a->major == b->major && a->minor == b->minor && a->mode == b->mode;
	return true;
}

/* An entry is already at path: the same one again is fine, an implied
 * directory takes an explicit mode, anything else is a conflict. */
static int entry_merge(struct image *img, struct image_entry *e, const struct image_entry *proto)
{
	if (S_ISDIR(e->mode) && S_ISDIR(proto->mode) && !proto->implicit) {
		e->mode = proto->mode;
		e->implicit = false;
	}
	if (S_ISDIR(e->mode) && e->implicit && S_ISLNK(proto->mode))
		return dir_to_symlink(img, e, proto);
	return entry_same(e, proto) ? 0 : -EEXIST;
}

static void place_report(const struct image *img, const char *dst, const char *path,
			 const struct image_entry *proto, int err)
{
	const struct image_entry *e = entry_lookup(img, path);

	if (err == -EEXIST && e)
		gen_error("cannot add %s to the image as a %s: /%s is already there as a different %s; "
			  "check the files and hooks that add this path", dst, entry_kind(proto), path, entry_kind(e));
	else if (err == -ENOTDIR)
		gen_error("cannot add %s to the image: one of its parents is already there and is not "
			  "a directory", dst);
	else if (err == -EINVAL)
		gen_error("cannot add %s to the image: give an absolute path below /", dst);
	else
		gen_error("cannot add %s to the image: %s", dst, strerror(-err));
}

/* Put a copy of proto at dst, through the image's symlinks. Reports. */
static int entry_place(struct image *img, const struct image_entry *proto, const char *dst)
{
	char *norm = NULL, *path = NULL;
	struct image_entry *e;
	int err = image_path_normalize(dst, &norm);

	if (err == 0 && norm[0] == '\0')
		err = -EINVAL;
	if (err == 0)
		err = path_resolve(img, norm, true, &path);
	if (err == 0 && (e = entry_lookup(img, path)))
		err = entry_merge(img, e, proto);
	else if (err == 0)
		err = entry_append(img, proto, strdup(path));
	if (err == ERR_REPORTED)
		err = -EEXIST;
	else if (err < 0)
		place_report(img, dst, path ? path : "", proto, err);
	free(norm);
	free(path);
	return err;
}

/* --- the public adders --------------------------------------------------- */

int image_add_file(struct image *img, const char *src, const char *dst, mode_t mode)
{
	struct image_entry proto = { 0 };
	struct stat st;

	if (stat(src, &st) < 0) {
		int err = -errno;

		gen_error("cannot add %s to the image: %s; check that it is installed", src, strerror(-err));
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		gen_error("cannot add %s to the image: it is not a regular file", src);
		return -EINVAL;
	}
	proto.mode = S_IFREG | ((mode ? mode : st.st_mode) & 07777);
	proto.src = (char *)src;
	proto.dev = st.st_dev;
	proto.ino = st.st_ino;
	proto.size = (unsigned long long)st.st_size;
	return entry_place(img, &proto, dst);
}

int image_add_data(struct image *img, const char *dst, const void *data, size_t len, mode_t mode)
{
	static const unsigned char empty[1] = { 0 };
	struct image_entry proto = {
		.mode = S_IFREG | ((mode ? mode : 0644) & 07777),
		.data = len ? (unsigned char *)data : (unsigned char *)empty,
		.size = len,
	};

	return entry_place(img, &proto, dst);
}

int image_add_dir(struct image *img, const char *dst, mode_t mode)
{
	struct image_entry proto = { .mode = S_IFDIR | ((mode ? mode : 0755) & 07777) };

	return entry_place(img, &proto, dst);
}

int image_add_symlink(struct image *img, const char *dst, const char *target)
{
	struct image_entry proto = { .mode = S_IFLNK | 0777, .target = (char *)target };

	if (target[0] == '\0') {
		gen_error("cannot add symlink %s to the image: its target is empty", dst);
		return -EINVAL;
	}
	return entry_place(img, &proto, dst);
}

int image_add_node(struct image *img, const char *dst, mode_t mode, unsigned int major, unsigned int minor)
{
	struct image_entry proto = { .mode = mode, .major = major, .minor = minor };

	if (!S_ISCHR(mode) && !S_ISBLK(mode)) {
		gen_error("cannot add device node %s to the image: mode %o is neither a character "
			  "nor a block device", dst, (unsigned int)mode);
		return -EINVAL;
	}
	return entry_place(img, &proto, dst);
}

bool image_has(const struct image *img, const char *dst)
{
	char *norm, *path;
	bool found = false;

	if (image_path_normalize(dst, &norm) < 0)
		return false;
	/* create is false, so the image is not changed. */
	if (path_resolve((struct image *)img, norm, false, &path) == 0) {
		found = path[0] == '\0' || entry_lookup(img, path) != NULL;
		free(path);
	}
	free(norm);
	return found;
}

