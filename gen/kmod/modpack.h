/* modpack: kernel modules as the image stores them, xz-compressed, made in parallel.
 *
 * Each module is stored compressed on its own, and the archive stores those
 * bytes without compressing them again. The kernel then unpacks the image
 * with a copy instead of decompressing every module, and the init
 * decompresses only the few modules it loads (bootlib/unxz.c). On the
 * generic image this moved the kernel's "Run /init" about 1.5 s earlier
 * under qemu TCG (docs/architecture.md).
 *
 * xz rather than gzip: the generic set's 438 modules (58.7 MB) take 13.0 MB
 * at xz preset 0 against 16.2 MB at zlib level 5, for about 25% more CPU
 * at build time; zstd needs level 19 (35 s of CPU) for 13.2 MB. The init
 * pays liblzma (0.1 MB in the image) and a slower decoder for the modules
 * it loads, which is why the modules most boots load are stored plain
 * (modpack_plain; docs/benchmarks.md, "Image size"), and a host-only
 * image's all (gen/kmod/kmods_emit.c), so that it need not carry liblzma.
 */
#ifndef LIFEBOAT_MODPACK_H
#define LIFEBOAT_MODPACK_H

#include <stdbool.h>
#include <stddef.h>

/* The xz preset of modules: preset 0 (a 256 KiB dictionary, larger than
 * most modules) is within 2.5% of preset 1's size in half its time
 * (measured on the generic set). */
#define MODPACK_XZ_PRESET 0

struct modpack_job {
	const char *src;   /* the module on the host, compressed or not */
	bool plain;        /* store it uncompressed (modpack_plain) */
	void *data;        /* out: xz stream or the plain module, malloc'd */
	size_t len;
};

/* Whether the module named name is stored plain: the modules a boot loads
 * on most machines, so that the init hands them to the kernel by their
 * descriptor instead of decompressing them (docs/benchmarks.md, "Image
 * size"); the archive's own compression covers them. */
bool modpack_plain(const char *name);

/* Read (decompressing .ko.xz/.zst/.gz) and xz-compress every job's module,
 * on as many threads as there are CPUs. Reports the first failure, naming
 * the module; returns 0 or -errno. Output is deterministic. */
int modpack_run(struct modpack_job *jobs, size_t n);
/* xz-compress len bytes of data into *out (malloc'd). */
int modpack_xz(const void *data, size_t len, void **out, size_t *out_len);

#endif
