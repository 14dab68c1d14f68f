/* applets: the applet names a busybox binary carries, read without running it.
 *
 * The generator must not execute what it packs (the image may be for another
 * architecture), and busybox has no other list of its applets, so the names
 * are read from the table compiled into it. */
#include "gen/elf/applets.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileread.h"

#define APPLET_NAME_MAX 32
#define APPLETS_MIN 3      /* "[", "[[" and at least one more */
#define APPLETS_FILE_MAX (64u << 20)

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

int applets_read_file(const char *path, struct strv *out)
{
	char *data = NULL;
	size_t len = 0;
	/* busybox is a few MB; the bound only stops a wrong path. */
	int r = file_read_all(path, APPLETS_FILE_MAX, &data, &len);

	if (r < 0)
		return r;
	r = applets_parse(data, len, out);
	free(data);
	return r;
}
