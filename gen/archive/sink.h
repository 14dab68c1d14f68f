/* sink: where the archive bytes go, as they are or gzip-compressed.
 *
 * The gzip stream is made by zlib's deflate at level 6 with a fixed header
 * (mtime 0, no name, OS unix), so the same bytes in give the same bytes out.
 * Errors are returned as -errno, never printed: the caller knows the file.
 */
#ifndef LIFEBOAT_SINK_H
#define LIFEBOAT_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

struct sink {
	int fd;
	bool gzip;
	bool stored;
	unsigned long long offset;  /* uncompressed bytes accepted so far */
	z_stream zs;
	gz_header gzh;
	unsigned char out[65536];
};

/* Start writing to fd (not closed by the sink). */
int sink_open(struct sink *s, int fd, bool gzip);
int sink_write(struct sink *s, const void *buf, size_t len);
/* Store what follows without compressing it (deflate level 0), or go back
 * to compressing: for content that is compressed already, which deflate
 * would only slow down to write and the kernel to read. No-op when not gzip. */
int sink_set_stored(struct sink *s, bool stored);
/* Write len zero bytes. */
int sink_zeros(struct sink *s, size_t len);
/* Flush the compressed stream's end; the fd stays open. Also frees. */
int sink_finish(struct sink *s);
/* Free without finishing, after an error. */
void sink_abort(struct sink *s);

#endif
