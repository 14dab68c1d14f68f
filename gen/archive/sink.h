/* sink: where the archive bytes go, as they are or through one of the
 * compressors the kernel can unpack an initramfs with.
 *
 * Every compressor is run with fixed settings and no timestamps or names
 * in its headers, so the same bytes in give the same bytes out. Errors are
 * returned as -errno, never printed: the caller knows the file.
 */
#ifndef LIFEBOAT_SINK_H
#define LIFEBOAT_SINK_H

#include <stdbool.h>
#include <stddef.h>

/* The image's compression; gzip is 0 so a zeroed setting is the default. */
enum sink_format {
	SINK_GZIP,
	SINK_NONE,
	SINK_ZSTD,
	SINK_XZ,
	SINK_LZ4,
	SINK_FORMAT_COUNT
};

struct sink_codec;

struct sink {
	int fd;
	const struct sink_codec *codec;  /* NULL: the bytes go out as they are */
	void *state;                      /* the codec's own */
	bool stored;
	unsigned long long offset;        /* uncompressed bytes accepted so far */
};

/* "gzip", "none", "zstd", "xz", "lz4": the --compress and build.conf words. */
const char *sink_format_name(enum sink_format f);
/* The word's format, or -EINVAL. */
int sink_format_parse(const char *name, enum sink_format *f);
/* The kernel option that must be y for the kernel to unpack an initramfs in
 * this format (CONFIG_RD_GZIP...), or NULL for an uncompressed one. */
const char *sink_format_kconfig(enum sink_format f);

/* Start writing to fd (not closed by the sink). */
int sink_open(struct sink *s, int fd, enum sink_format f);
int sink_write(struct sink *s, const void *buf, size_t len);
/* Store what follows with the compressor's cheapest setting, or go back to
 * compressing: for content that is compressed already (the modules), which
 * compressing again would only slow down to write and the kernel to read.
 * gzip stores it (deflate level 0) and xz starts a block at preset 0; zstd
 * and lz4 carry on as they are (zstd writes incompressible blocks raw by
 * itself, and lz4 decodes near memcpy speed either way). */
int sink_set_stored(struct sink *s, bool stored);
/* Write len zero bytes. */
int sink_zeros(struct sink *s, size_t len);
/* Flush the compressed stream's end; the fd stays open. Also frees. */
int sink_finish(struct sink *s);
/* Free without finishing, after an error. */
void sink_abort(struct sink *s);

#endif
