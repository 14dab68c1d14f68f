/* pagecomp_lzo: LZO pages (lzo1x-1, makedumpfile -l's compressor), with
 * liblzo2 opened at run time (dlopen): only capture images built with
 * compress=lzo carry it, and the init links no compression library for
 * it. */
#include "kdump/pagecomp.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <lzo/lzo1x.h>

/* lzo1x_1_compress, as makedumpfile -l: the same bytes for every page,
 * so a dump is never larger than -l's. Its 16384-entry dictionary, cleared
 * for every page, costs half of a page's instructions; the 4096-entry
 * lzo1x_1_12 takes 57% fewer but made the 8 GB guest's dump 0.04% larger
 * and the 512 MB one's 0.3% (docs/benchmarks-history.md, "kdump on large
 * memory: the LZO dictionary"). Either is what lzo1x_decompress_safe,
 * makedumpfile's and crash's reader, reads. */
#define LZO_COMPRESS_FN "lzo1x_1_compress"
#define LZO_WORK_MEM LZO1X_1_MEM_COMPRESS

typedef int (*lzo_init_fn)(unsigned, int, int, int, int, int, int, int, int, int);
typedef int (*lzo_compress_fn)(const lzo_bytep src, lzo_uint src_len, lzo_bytep dst,
			       lzo_uintp dst_len, lzo_voidp wrkmem);

static struct {
	pthread_once_t once;
	lzo_compress_fn compress;
	char why[200];
} lzo = { .once = PTHREAD_ONCE_INIT };

/* Once for every thread: the library, its one function, and lzo_init()'s
 * check that it was built with our type sizes. */
static void lzo_load(void)
{
	void *lib = dlopen(KDUMP_LIBLZO, RTLD_NOW | RTLD_LOCAL);
	lzo_init_fn init;

	if (!lib) {
		snprintf(lzo.why, sizeof(lzo.why), "%s", dlerror());
		return;
	}
	/* POSIX guarantees data and function pointers convert (dlsym). */
	*(void **)&init = dlsym(lib, "__lzo_init_v2");
	*(void **)&lzo.compress = dlsym(lib, LZO_COMPRESS_FN);
	if (!init || !lzo.compress) {
		snprintf(lzo.why, sizeof(lzo.why), "%s lacks %s", KDUMP_LIBLZO, LZO_COMPRESS_FN);
		lzo.compress = NULL;
		return;
	}
	if (init(LZO_VERSION, (int)sizeof(short), (int)sizeof(int), (int)sizeof(long),
		 (int)sizeof(lzo_uint32_t), (int)sizeof(lzo_uint), (int)lzo_sizeof_dict_t,
		 (int)sizeof(char *), (int)sizeof(lzo_voidp), (int)sizeof(lzo_callback_t)) != LZO_E_OK) {
		snprintf(lzo.why, sizeof(lzo.why), "%s failed its lzo_init() check", KDUMP_LIBLZO);
		lzo.compress = NULL;
	}
}

/* lzo1x's own bound for incompressible input. */
static size_t lzo_bound(size_t len)
{
	return len + len / 16 + 64 + 3;
}

/* The state is the compressor's work memory (its dictionary). */
static int lzo_new(void **state, char *why, size_t why_size)
{
	pthread_once(&lzo.once, lzo_load);
	if (!lzo.compress) {
		snprintf(why, why_size, "%s", lzo.why);
		return -ENOENT;
	}
	*state = malloc(LZO_WORK_MEM);
	return *state ? 0 : -ENOMEM;
}

static size_t lzo_compress(void *state, const uint8_t *in, size_t len, uint8_t *out)
{
	lzo_uint out_len = 0;

	if (lzo.compress(in, len, out, &out_len, state) != LZO_E_OK || out_len >= len)
		return 0;
	return out_len;
}

const struct pagecomp pagecomp_lzo = {
	.name = "lzo",
	.flag = DUMP_DH_COMPRESSED_LZO,
	.bound = lzo_bound,
	.state_new = lzo_new,
	.compress = lzo_compress,
	.state_free = free,
};
