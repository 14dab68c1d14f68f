/* sink_xz: the archive as one .xz stream (liblzma), in the form the kernel's
 * XZ Embedded decoder (lib/decompress_unxz.c) accepts: LZMA2 only, CRC32
 * check (it supports no other), no BCJ filter (the image is not only code,
 * and it would tie the image to the build host's architecture). */
#include "gen/archive/sink_codec.h"

#include <errno.h>
#include <lzma.h>
#include <stdlib.h>

#include "common/filewrite.h"

/* Preset 6 (8 MiB dictionary) for the image's own files; stored content
 * (the gzip'd modules) gets a new block at preset 0, which is 5x faster on
 * data that does not compress (measured on a generic image: 7.8 s against
 * 38 s with xz(1)), and the kernel still only copies LZMA2's uncompressed
 * chunks. A block per change costs about 30 bytes. */
#define XZ_PRESET 6
#define XZ_STORED_PRESET 0

struct xz_state {
	lzma_stream ls;
	lzma_options_lzma opt;
	lzma_filter filters[2];
	unsigned char out[SINK_OUT_SIZE];
};

/* The one-filter chain at preset into x->filters. */
static int xz_filters_set(struct xz_state *x, uint32_t preset)
{
	if (lzma_lzma_preset(&x->opt, preset))
		return -EINVAL;
	x->filters[0].id = LZMA_FILTER_LZMA2;
	x->filters[0].options = &x->opt;
	x->filters[1].id = LZMA_VLI_UNKNOWN;
	x->filters[1].options = NULL;
	return 0;
}

static int xz_error(lzma_ret rc)
{
	return rc == LZMA_MEM_ERROR || rc == LZMA_MEMLIMIT_ERROR ? -ENOMEM : -EINVAL;
}

static int xz_open(struct sink *s)
{
	struct xz_state *x = calloc(1, sizeof(*x));
	lzma_stream init = LZMA_STREAM_INIT;
	lzma_ret rc;

	if (!x)
		return -ENOMEM;
	x->ls = init;
	if (xz_filters_set(x, XZ_PRESET) < 0) {
		free(x);
		return -EINVAL;
	}
	rc = lzma_stream_encoder(&x->ls, x->filters, LZMA_CHECK_CRC32);
	if (rc != LZMA_OK) {
		free(x);
		return xz_error(rc);
	}
	s->state = x;
	return 0;
}

/* Code the pending input with action, writing all output, until the input
 * is used (LZMA_RUN) or the flush or the end is complete. */
static int xz_run(struct sink *s, lzma_action action)
{
	struct xz_state *x = s->state;
	lzma_ret rc;

	do {
		x->ls.next_out = x->out;
		x->ls.avail_out = sizeof(x->out);
		rc = lzma_code(&x->ls, action);
		if (rc != LZMA_OK && rc != LZMA_STREAM_END)
			return xz_error(rc);
		int err = file_write_fd(s->fd, x->out, sizeof(x->out) - x->ls.avail_out);
		if (err < 0)
			return err;
	} while (action == LZMA_RUN ? x->ls.avail_in > 0 : rc != LZMA_STREAM_END);
	return 0;
}

static int xz_write(struct sink *s, const unsigned char *buf, size_t len)
{
	struct xz_state *x = s->state;

	x->ls.next_in = buf;
	x->ls.avail_in = len;
	return xz_run(s, LZMA_RUN);
}

static int xz_set_stored(struct sink *s, bool stored)
{
	struct xz_state *x = s->state;
	int err;

	/* End the block; the next one is made with the other preset. */
	x->ls.avail_in = 0;
	err = xz_run(s, LZMA_FULL_FLUSH);
	if (err == 0)
		err = xz_filters_set(x, stored ? XZ_STORED_PRESET : XZ_PRESET);
	if (err == 0) {
		lzma_ret rc = lzma_filters_update(&x->ls, x->filters);

		err = rc == LZMA_OK ? 0 : xz_error(rc);
	}
	return err;
}

static int xz_finish(struct sink *s)
{
	struct xz_state *x = s->state;

	x->ls.avail_in = 0;
	return xz_run(s, LZMA_FINISH);
}

static void xz_end(struct sink *s)
{
	struct xz_state *x = s->state;

	lzma_end(&x->ls);
	free(x);
}

const struct sink_codec sink_codec_xz = {
	.open = xz_open,
	.write = xz_write,
	.set_stored = xz_set_stored,
	.finish = xz_finish,
	.end = xz_end,
};
