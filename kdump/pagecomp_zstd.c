/* pagecomp_zstd: zstd pages (makedumpfile -z: level 1, one frame per
 * page), with libzstd opened at run time (dlopen) as liblzo2 is: only
 * capture images built with compress=zstd carry it. makedumpfile 1.7.6
 * and crash 8.0.6 (Debian 13) read them; Debian 12's 1.7.2 was built
 * without zstd. */
#include "kdump/pagecomp.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* makedumpfile -z's level: the fastest of the normal ones. */
#define ZSTD_PAGE_LEVEL 1

typedef void *(*zstd_create_fn)(void);
typedef size_t (*zstd_free_fn)(void *cctx);
typedef size_t (*zstd_compress_fn)(void *cctx, void *dst, size_t dst_cap, const void *src,
				   size_t src_len, int level);
typedef unsigned (*zstd_is_error_fn)(size_t code);

static struct {
	pthread_once_t once;
	zstd_create_fn create;
	zstd_free_fn free;
	zstd_compress_fn compress;
	zstd_is_error_fn is_error;
	char why[200];
} zstd = { .once = PTHREAD_ONCE_INIT };

static void zstd_load(void)
{
	void *lib = dlopen(KDUMP_LIBZSTD, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		snprintf(zstd.why, sizeof(zstd.why), "%s", dlerror());
		return;
	}
	/* POSIX guarantees data and function pointers convert (dlsym). */
	*(void **)&zstd.create = dlsym(lib, "ZSTD_createCCtx");
	*(void **)&zstd.free = dlsym(lib, "ZSTD_freeCCtx");
	*(void **)&zstd.compress = dlsym(lib, "ZSTD_compressCCtx");
	*(void **)&zstd.is_error = dlsym(lib, "ZSTD_isError");
	if (!zstd.create || !zstd.free || !zstd.compress || !zstd.is_error) {
		snprintf(zstd.why, sizeof(zstd.why), "%s lacks ZSTD_compressCCtx", KDUMP_LIBZSTD);
		zstd.compress = NULL;
	}
}

/* ZSTD_COMPRESSBOUND for inputs under 128 KiB. */
static size_t zstd_bound(size_t len)
{
	return len + (len >> 8) + ((128u << 10) - len) / (1u << 11);
}

/* The state is a compression context, reused for every page. */
static int zstd_new(void **state, char *why, size_t why_size)
{
	pthread_once(&zstd.once, zstd_load);
	if (!zstd.compress) {
		snprintf(why, why_size, "%s", zstd.why);
		return -ENOENT;
	}
	*state = zstd.create();
	return *state ? 0 : -ENOMEM;
}

static size_t zstd_compress(void *state, const uint8_t *in, size_t len, uint8_t *out)
{
	size_t n = zstd.compress(state, out, zstd_bound(len), in, len, ZSTD_PAGE_LEVEL);

	return zstd.is_error(n) || n >= len ? 0 : n;
}

static void zstd_state_free(void *state)
{
	if (state)
		zstd.free(state);
}

const struct pagecomp pagecomp_zstd = {
	.name = "zstd",
	.flag = DUMP_DH_COMPRESSED_ZSTD,
	.bound = zstd_bound,
	.state_new = zstd_new,
	.compress = zstd_compress,
	.state_free = zstd_state_free,
};
