/* dumpsink: where the dump's bytes go: a file written in place, or a
 * stream in makedumpfile's flattened format (each piece preceded by its
 * offset and size, big-endian), which needs no seeking. */
#include "kdump/dumpsink.h"

#include <string.h>

#include "common/filewrite.h"

#define FLAT_SIGNATURE "makedumpfile"
#define FLAT_TYPE 1
#define FLAT_VERSION 1

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

void dump_sink_flat_header(uint8_t out[16], int64_t off, int64_t size)
{
	put_be64(out, (uint64_t)off);
	put_be64(out + 8, (uint64_t)size);
}

/* What the sink has written is counted for the capture's summary. */
static int write_all(struct dump_sink *s, const void *buf, size_t len)
{
	int r = file_write_fd(s->fd, buf, len);

	if (r == 0)
		s->bytes += len;
	return r;
}

static int pwrite_all(struct dump_sink *s, uint64_t off, const void *buf, size_t len)
{
	int r = file_write_fd_at(s->fd, buf, len, off);

	if (r == 0)
		s->bytes += len;
	return r;
}

void dump_sink_init(struct dump_sink *s, int fd, bool flat)
{
	s->fd = fd;
	s->flat = flat;
	s->bytes = 0;
}

int dump_sink_begin(struct dump_sink *s)
{
	uint8_t head[FLAT_HEADER_SIZE] = { 0 };

	if (!s->flat)
		return 0;
	memcpy(head, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE) - 1);
	put_be64(head + 16, FLAT_TYPE);
	put_be64(head + 24, FLAT_VERSION);
	return write_all(s, head, sizeof(head));
}

int dump_sink_write(struct dump_sink *s, uint64_t off, const void *buf, size_t len)
{
	uint8_t rec[16];
	int r;

	if (s->fd < 0)
		return 0;
	if (!s->flat)
		return pwrite_all(s, off, buf, len);
	dump_sink_flat_header(rec, (int64_t)off, (int64_t)len);
	r = write_all(s, rec, sizeof(rec));
	return r < 0 ? r : write_all(s, buf, len);
}

int dump_sink_end(struct dump_sink *s)
{
	uint8_t rec[16];

	if (!s->flat)
		return 0;
	dump_sink_flat_header(rec, -1, -1);
	return write_all(s, rec, sizeof(rec));
}
