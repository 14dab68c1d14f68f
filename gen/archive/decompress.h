/* decompress: the compressed members an initramfs may hold, by magic bytes. */
#ifndef LIFEBOAT_DECOMPRESS_H
#define LIFEBOAT_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Never unpack more than this from one file: an initramfs is far smaller,
 * and a hostile file must not exhaust memory. The archive reader sets a
 * tighter budget for a whole image (gen/archive/archive.c). */
#define DECOMPRESS_MAX_OUT (1024UL * 1024 * 1024)

struct decompressor {
	const char *name;
	unsigned char magic[6];
	size_t magic_len;
	/* Decompress one stream from the start of in; *out is malloc'd. Sets
	 * *consumed to the compressed bytes used, so what follows can be read.
	 * At most DECOMPRESS_MAX_OUT bytes, else -EFBIG. */
	int (*run)(const unsigned char *in, size_t len, unsigned char **out,
		   size_t *out_len, size_t *consumed);
	/* The same with a limit: more than max_out bytes of output is -EFBIG. */
	int (*unpack)(const unsigned char *in, size_t len, size_t max_out,
		      unsigned char **out, size_t *out_len, size_t *consumed);
};

/* The decompressor whose magic starts buf, or NULL. */
const struct decompressor *decompress_find(const unsigned char *buf, size_t len);

#endif
