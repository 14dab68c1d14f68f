/* sink_zstd: the archive as one zstd frame (libzstd), which the kernel's
 * lib/decompress_unzstd.c unpacks. */
#include "gen/archive/sink_codec.h"

#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

#include "common/filewrite.h"

/* Level 9: on a generic image (22.7 MB, 19 MB of it gzip'd modules) levels
 * 9, 15 and 19 gave 19.02, 18.99 and 18.38 MB in 1.4, 5.4 and 23 s; the
 * kernel copies zstd's raw blocks either way. The kernel refuses frames
 * whose window is over 8 MiB (2^23): level 9's is 2^22, and the window is
 * set explicitly so that no libzstd version's level table can change it. */
#define ZSTD_IMAGE_LEVEL 9
#define ZSTD_IMAGE_WINDOW_LOG 22

struct zstd_state {
	ZSTD_CCtx *cctx;
	unsigned char out[SINK_OUT_SIZE];
};

static int zstd_open(struct sink *s)
{
	struct zstd_state *z = calloc(1, sizeof(*z));

	if (!z)
		return -ENOMEM;
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx) {
		free(z);
		return -ENOMEM;
	}
	/* One thread: the frame does not depend on the build host's CPUs. A
	 * checksum, as gzip's CRC, so the kernel notices a damaged image. */
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, ZSTD_IMAGE_LEVEL)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_windowLog, ZSTD_IMAGE_WINDOW_LOG)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_checksumFlag, 1))) {
		ZSTD_freeCCtx(z->cctx);
		free(z);
		return -EINVAL;
	}
	s->state = z;
	return 0;
}

/* Compress what ib holds with mode, writing all output; with ZSTD_e_end,
 * until the frame is closed. */
static int zstd_run(struct sink *s, ZSTD_inBuffer *ib, ZSTD_EndDirective mode)
{
	struct zstd_state *z = s->state;
	size_t left;

	do {
		ZSTD_outBuffer ob = { z->out, sizeof(z->out), 0 };

		left = ZSTD_compressStream2(z->cctx, &ob, ib, mode);
		if (ZSTD_isError(left))
			return -EINVAL;
		int err = file_write_fd(s->fd, z->out, ob.pos);
		if (err < 0)
			return err;
	} while (mode == ZSTD_e_end ? left != 0 : ib->pos < ib->size);
	return 0;
}

static int zstd_write(struct sink *s, const unsigned char *buf, size_t len)
{
	ZSTD_inBuffer ib = { buf, len, 0 };

	return zstd_run(s, &ib, ZSTD_e_continue);
}

static int zstd_finish(struct sink *s)
{
	ZSTD_inBuffer ib = { NULL, 0, 0 };

	return zstd_run(s, &ib, ZSTD_e_end);
}

static void zstd_end(struct sink *s)
{
	struct zstd_state *z = s->state;

	ZSTD_freeCCtx(z->cctx);
	free(z);
}

const struct sink_codec sink_codec_zstd = {
	.open = zstd_open,
	.write = zstd_write,
	.set_stored = NULL,
	.finish = zstd_finish,
	.end = zstd_end,
};
