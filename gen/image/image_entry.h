/* image_entry: the entry store behind image.h, shared by image.c (adding),
 * image_host.c (host paths) and image_write.c (the archive). Not for other
 * callers. */
#ifndef LIFEBOAT_IMAGE_ENTRY_H
#define LIFEBOAT_IMAGE_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "gen/image/image.h"

struct image_entry {
	char *path;              /* normalized, no leading '/': "usr/lib/x" */
	mode_t mode;             /* type and permission bits */
	bool implicit;           /* a directory only implied by its children */
	bool dead;               /* moved away when its directory became a symlink */
	char *src;               /* regular file from the host, read at write time */
	dev_t dev;               /* host identity of src, to find hard links */
	ino_t ino;
	unsigned long long size; /* src size when added, or data length */
	unsigned char *data;     /* regular file given as content */
	char *target;            /* symlink target text */
	unsigned int major, minor;
	unsigned char kind;      /* enum image_kind, for size reports */
};

struct image {
	struct image_entry *entries;
	size_t len, cap;
	size_t *slots;           /* hash of path -> entry index + 1; 0 is empty */
	size_t nslots;
	unsigned char kind;      /* the kind given to entries added next */
	bool has_xz;             /* an xz stream for the init is in it (image_add_xz) */
	struct image *early;     /* written uncompressed before, not owned */
};

/* Lexically clean an image path ("/a//b/./c" -> "a/b/c"); ".." above the
 * root is -EINVAL. *out is malloc'd. */
int image_path_normalize(const char *in, char **out);

#endif
