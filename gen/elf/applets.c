/* applets: the applet names a busybox binary carries, read without running it.
 *
 * The generator must not execute what it packs (the image may be for another
 * architecture), and busybox has no other list of its applets, so the names
 * are read from the table compiled into it. */
#include "gen/elf/applets.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define APPLET_NAME_MAX 32
#define APPLETS_MIN 3      /* "[", "[[" and at least one more */

static const char applet_marker[] = "[\0[[";   /* with its NUL: "[\0[[\0" */

static bool applet_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_' || c == '.' || c == '[';
}

/* Length of the valid name at p (before its NUL), or 0. */
static size_t name_at(const unsigned char *p, const unsigned char *end)
{
	size_t n = 0;

	while (p + n < end && n <= APPLET_NAME_MAX && applet_char(p[n]))
		n++;
	if (n == 0 || n > APPLET_NAME_MAX || p + n >= end || p[n] != '\0')
		return 0;
	return n;
}

/* How many sorted names follow from p; *span gets their total bytes. */
static size_t run_length(const unsigned char *p, const unsigned char *end, size_t *span)
{
	const unsigned char *prev = NULL;
	size_t count = 0;

	*span = 0;
	for (;;) {
		size_t n = name_at(p + *span, end);

		if (n == 0 || (prev && strcmp((const char *)prev, (const char *)p + *span) >= 0))
			break;
		prev = p + *span;
		*span += n + 1;
		count++;
	}
	return count;
}

int applets_parse(const void *buf, size_t len, struct strv *out)
{
	const unsigned char *start = buf, *end = start + len, *best = NULL;
	size_t best_count = 0, best_span = 0;

	for (const unsigned char *p = start; p < end;) {
		const unsigned char *hit = memmem(p, (size_t)(end - p), applet_marker, sizeof(applet_marker));
		size_t span, count;

		if (!hit)
			break;
		count = run_length(hit, end, &span);
		if (count > best_count) {
			best = hit;
			best_count = count;
			best_span = span;
		}
		p = hit + 1;
	}
	if (best_count < APPLETS_MIN)
		return -ENOENT;
	for (size_t off = 0; off < best_span; off += strlen((const char *)best + off) + 1)
		if (strv_push(out, (const char *)best + off) < 0)
			return -ENOMEM;
	return (int)best_count;
}

/* The whole file: busybox is a few MB at most. */
static int read_whole(int fd, unsigned char **data, size_t *len)
{
	struct stat st;
	size_t got = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	*data = malloc((size_t)st.st_size + 1);
	if (!*data)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(*data);
			return n < 0 ? -errno : -EIO;
		}
		got += (size_t)n;
	}
	*len = got;
	return 0;
}

int applets_read_file(const char *path, struct strv *out)
{
	unsigned char *data = NULL;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = read_whole(fd, &data, &len);
	close(fd);
	if (r < 0)
		return r;
	r = applets_parse(data, len, out);
	free(data);
	return r;
}
