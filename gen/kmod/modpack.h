/* modpack: kernel modules as the image stores them, gzip-compressed, made in parallel.
 *
 * Each module is stored compressed on its own, and the archive stores those
 * bytes without deflating them again. The kernel then unpacks the image
 * with a copy instead of inflating every module, and the init inflates only
 * the few modules it loads (init/modload.c). On the generic image this moved
 * the kernel's "Run /init" about 1.5 s earlier under qemu TCG (docs/architecture.md).
 */
#ifndef LIFEBOAT_MODPACK_H
#define LIFEBOAT_MODPACK_H

#include <stddef.h>

/* The zlib level of modules: level 5 is a third faster than 6 on modules
 * for 1.4% more size (measured on the generic set). */
#define MODPACK_GZIP_LEVEL 5

struct modpack_job {
	const char *src;   /* the module on the host, compressed or not */
	void *data;        /* out: gzip stream, malloc'd */
	size_t len;
};

/* Read (decompressing .ko.xz/.zst/.gz) and gzip every job's module, on as
 * many threads as there are CPUs. Reports the first failure, naming the
 * module; returns 0 or -errno. Output is deterministic (gzip mtime 0). */
int modpack_run(struct modpack_job *jobs, size_t n);
/* gzip len bytes of data into *out (malloc'd). */
int modpack_gzip(const void *data, size_t len, void **out, size_t *out_len);

#endif
