/* pagecomp: the page compressors of the kdump-compressed format; zlib here,
 * LZO in pagecomp_lzo.c. */
#include "kdump/pagecomp.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

static size_t zlib_bound(size_t len)
{
	return compressBound((uLong)len);
}

static int zlib_new(void **state, char *why, size_t why_size)
{
	z_stream *z = calloc(1, sizeof(*z));

	(void)why;
	(void)why_size;
	/* Level 1, as makedumpfile -c: the level decides the capture's time. */
	if (!z || deflateInit(z, Z_BEST_SPEED) != Z_OK) {
		free(z);
		return -ENOMEM;
	}
	*state = z;
	return 0;
}

/* One stream, reset per page: each page is a zlib stream of its own. */
static size_t zlib_compress(void *state, const uint8_t *in, size_t len, uint8_t *out)
{
	z_stream *z = state;

	deflateReset(z);
	z->next_in = (Bytef *)in;
	z->avail_in = (uInt)len;
	z->next_out = out;
	z->avail_out = (uInt)compressBound((uLong)len);
	if (deflate(z, Z_FINISH) != Z_STREAM_END || z->total_out >= len)
		return 0;
	return z->total_out;
}

static void zlib_free(void *state)
{
	if (state)
		deflateEnd(state);
	free(state);
}

static const struct pagecomp pagecomp_zlib = {
	.name = "zlib",
	.flag = DUMP_DH_COMPRESSED_ZLIB,
	.bound = zlib_bound,
	.state_new = zlib_new,
	.compress = zlib_compress,
	.state_free = zlib_free,
};

const char *pagecomp_flag_name(uint32_t flag)
{
	if (flag == DUMP_DH_COMPRESSED_ZSTD)
		return "zstd";
	return flag == DUMP_DH_COMPRESSED_LZO ? "lzo" : "zlib";
}

const struct pagecomp *pagecomp_get(enum kdump_compress which)
{
	if (which == COMPRESS_ZSTD)
		return &pagecomp_zstd;
	return which == COMPRESS_LZO ? &pagecomp_lzo : &pagecomp_zlib;
}
