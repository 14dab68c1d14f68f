/* fuzz_mountinfo: common/mountinfo.c on arbitrary text: no crash; every
 * entry's fields are non-empty and inside their line; the file reader and
 * the text reader see the same entries (a line is never split or joined,
 * however long). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/mountinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct record {
	char *buf;
	size_t len, cap;
};

static void record_add(struct record *r, const char *s)
{
	size_t n = strlen(s) + 1;

	if (r->len + n > r->cap) {
		r->cap = (r->len + n) * 2;
		r->buf = realloc(r->buf, r->cap);
		if (!r->buf)
			abort();
	}
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

static int record_entry(const struct mountinfo_entry *m, void *ctx)
{
	char nums[32];

	if (!m->root[0] || !m->path[0] || !m->options[0] || !m->fstype[0] || !m->source[0])
		abort();
	snprintf(nums, sizeof(nums), "%u:%u%c", m->major, m->minor,
		 mountinfo_is_block(m) ? 'b' : '-');
	record_add(ctx, nums);
	record_add(ctx, m->root);
	record_add(ctx, m->path);
	record_add(ctx, m->options);
	record_add(ctx, m->fstype);
	record_add(ctx, m->source);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record from_text = { NULL, 0, 0 }, from_file = { NULL, 0, 0 };
	char path[64];
	int fd = memfd_create("mountinfo", 0);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (mountinfo_walk((const char *)data, size, record_entry, &from_text) != 0 ||
	    mountinfo_walk_file(path, record_entry, &from_file) != 0)
		abort();
	if (from_text.len != from_file.len ||
	    (from_text.len && memcmp(from_text.buf, from_file.buf, from_text.len) != 0))
		abort();
	free(from_text.buf);
	free(from_file.buf);
	close(fd);
	return 0;
}
