/* image_fixture: temp directories, shell commands and archive listings for
 * the image, cpio and archive tests. */
#ifndef LIFEBOAT_TEST_IMAGE_FIXTURE_H
#define LIFEBOAT_TEST_IMAGE_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/archive/archive.h"

/* A fresh directory under /tmp; the caller removes it with fixture_rmrf. */
static inline char *fixture_tmpdir(void)
{
	char *dir = strdup("/tmp/lifeboat-test-XXXXXX");

	if (!dir || !mkdtemp(dir))
		abort();
	return dir;
}

/* Run a shell command built like printf; returns its exit status. */
static inline int fixture_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int fixture_sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static inline void fixture_rmrf(char *dir)
{
	if (dir && strncmp(dir, "/tmp/lifeboat-test-", 19) == 0)
		fixture_sh("rm -rf '%s'", dir);
	free(dir);
}

/* Read a whole file; *len gets its size. NULL if it cannot be read. */
static inline unsigned char *fixture_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static inline void fixture_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		abort();
}

/* What the reader saw of one entry. */
struct seen {
	char path[256];
	unsigned long mode, nlink, ino, size, rdevmajor, rdevminor, mtime, uid, gid;
	unsigned int member;
	char data[256];          /* the first bytes of the content, NUL-terminated */
};

struct listing {
	struct seen items[4096];
	size_t len;
};

static inline int listing_add(const struct archive_entry *e, void *ctx)
{
	struct listing *l = ctx;
	struct seen *s;

	if (l->len == sizeof(l->items) / sizeof(l->items[0]))
		return 0;
	s = &l->items[l->len++];
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", e->path);
	s->mode = e->hdr->mode;
	s->nlink = e->hdr->nlink;
	s->ino = e->hdr->ino;
	s->size = e->size;
	s->rdevmajor = e->hdr->rdevmajor;
	s->rdevminor = e->hdr->rdevminor;
	s->mtime = e->hdr->mtime;
	s->uid = e->hdr->uid;
	s->gid = e->hdr->gid;
	s->member = e->member;
	memcpy(s->data, e->data, e->size < sizeof(s->data) - 1 ? e->size : sizeof(s->data) - 1);
	return 0;
}

/* The entry named path (as stored, any "./" or "/" prefix skipped), or NULL. */
static inline const struct seen *listing_find(const struct listing *l, const char *path)
{
	for (size_t i = 0; i < l->len; i++) {
		const char *p = l->items[i].path;

		while (p[0] == '.' && p[1] == '/')
			p += 2;
		while (p[0] == '/')
			p++;
		if (strcmp(p, path) == 0)
			return &l->items[i];
	}
	return NULL;
}

#endif
