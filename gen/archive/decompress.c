/* decompress: gzip (zlib), xz (liblzma) and zstd (libzstd) members, by magic. */
#include "gen/archive/decompress.h"

#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define XZ_MEMLIMIT (256UL * 1024 * 1024)

/* A growing output buffer, bounded by max (the caller's limit). */
struct outbuf {
	unsigned char *data;
	size_t len;
	size_t cap;
	size_t max;
};

/* Make room for at least one more byte; doubles the buffer. */
static int outbuf_grow(struct outbuf *o)
{
	size_t cap = o->cap ? o->cap * 2 : 1024 * 1024;
	unsigned char *p;

	if (o->cap >= o->max)
		return -EFBIG;
	if (cap > o->max)
		cap = o->max;
	p = realloc(o->data, cap);
	if (!p)
		return -ENOMEM;
	o->data = p;
	o->cap = cap;
	return 0;
}

static int outbuf_done(struct outbuf *o, int err, unsigned char **out, size_t *out_len)
{
	if (err < 0) {
		free(o->data);
		return err;
	}
	*out = o->data;
	*out_len = o->len;
	return 0;
}

static int gzip_unpack(const unsigned char *in, size_t len, size_t max_out,
		       unsigned char **out, size_t *out_len, size_t *consumed)
{
	struct outbuf o = { .max = max_out };
	z_stream zs = { 0 };
	int rc = Z_OK, err = 0;

	/* 15 + 16: a gzip wrapper, not zlib's. */
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		return -ENOMEM;
	zs.next_in = (Bytef *)in;
	zs.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
	while (rc != Z_STREAM_END) {
		if (o.len == o.cap && (err = outbuf_grow(&o)) < 0)
			break;
		zs.next_out = o.data + o.len;
		zs.avail_out = (uInt)(o.cap - o.len);
		rc = inflate(&zs, Z_NO_FLUSH);
		o.len = o.cap - zs.avail_out;
		if (rc == Z_BUF_ERROR && zs.avail_in == 0)
			err = -EINVAL;  /* the stream ends early */
		else if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
			err = -EINVAL;
		if (err < 0)
			break;
	}
	*consumed = (size_t)(zs.next_in - in);
	inflateEnd(&zs);
	return outbuf_done(&o, err, out, out_len);
}

static int xz_unpack(const unsigned char *in, size_t len, size_t max_out,
		     unsigned char **out, size_t *out_len, size_t *consumed)
{
	struct outbuf o = { .max = max_out };
	lzma_stream ls = LZMA_STREAM_INIT;
	lzma_ret rc = LZMA_OK;
	int err = 0;

	/* The header names the dictionary to allocate: xz -9 needs 65 MiB,
	 * a hostile one may ask for 1.5 GiB. */
	if (lzma_stream_decoder(&ls, XZ_MEMLIMIT, 0) != LZMA_OK)
		return -ENOMEM;
	ls.next_in = in;
	ls.avail_in = len;
	while (rc != LZMA_STREAM_END) {
		if (o.len == o.cap && (err = outbuf_grow(&o)) < 0)
			break;
		ls.next_out = o.data + o.len;
		ls.avail_out = o.cap - o.len;
		/* LZMA_FINISH: all input is here, so a cut stream is an error. */
		rc = lzma_code(&ls, LZMA_FINISH);
		o.len = o.cap - ls.avail_out;
		if (rc != LZMA_OK && rc != LZMA_STREAM_END) {
			err = rc == LZMA_MEM_ERROR || rc == LZMA_MEMLIMIT_ERROR ? -ENOMEM : -EINVAL;
			break;
		}
	}
	*consumed = (size_t)(ls.next_in - in);
	lzma_end(&ls);
	return outbuf_done(&o, err, out, out_len);
}

static int zstd_unpack(const unsigned char *in, size_t len, size_t max_out,
		       unsigned char **out, size_t *out_len, size_t *consumed)
{
	struct outbuf o = { .max = max_out };
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t rc = 1;
	int err = 0;

	if (!dctx)
		return -ENOMEM;
	/* rc 0 means a frame is complete and flushed. */
	while (rc != 0) {
		if (o.len == o.cap && (err = outbuf_grow(&o)) < 0)
			break;
		ZSTD_outBuffer ob = { o.data, o.cap, o.len };
		size_t made = o.len;

		rc = ZSTD_decompressStream(dctx, &ob, &ib);
		o.len = ob.pos;
		if (ZSTD_isError(rc)) {
			err = -EINVAL;
			break;
		}
		/* Input used up, room left, nothing made, frame not done:
		 * the stream was cut short. */
		if (rc != 0 && ib.pos == len && ob.pos == made && ob.pos < ob.size) {
			err = -EINVAL;
			break;
		}
	}
	*consumed = ib.pos;
	ZSTD_freeDCtx(dctx);
	return outbuf_done(&o, err, out, out_len);
}

/* The module reader's entry points (gen/kmod/modfile.c): one file, the fixed cap. */
static int gzip_run(const unsigned char *in, size_t len, unsigned char **out,
		    size_t *out_len, size_t *consumed)
{
	return gzip_unpack(in, len, DECOMPRESS_MAX_OUT, out, out_len, consumed);
}

static int xz_run(const unsigned char *in, size_t len, unsigned char **out,
		  size_t *out_len, size_t *consumed)
{
	return xz_unpack(in, len, DECOMPRESS_MAX_OUT, out, out_len, consumed);
}

static int zstd_run(const unsigned char *in, size_t len, unsigned char **out,
		    size_t *out_len, size_t *consumed)
{
	return zstd_unpack(in, len, DECOMPRESS_MAX_OUT, out, out_len, consumed);
}

static const struct decompressor decompressors[] = {
	{ "gzip", { 0x1f, 0x8b }, 2, gzip_run, gzip_unpack },
	{ "xz", { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6, xz_run, xz_unpack },
	{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, zstd_run, zstd_unpack },
};

const struct decompressor *decompress_find(const unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(decompressors) / sizeof(decompressors[0]); i++) {
		const struct decompressor *d = &decompressors[i];

		if (len >= d->magic_len && memcmp(buf, d->magic, d->magic_len) == 0)
			return d;
	}
	return NULL;
}
