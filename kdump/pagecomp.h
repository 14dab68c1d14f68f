/* pagecomp: the page compressors of the kdump-compressed format, a table
 * by kdump.conf's compress= name: zlib (makedumpfile -c, zlib's fastest
 * level), LZO (makedumpfile -l, lzo1x-1, liblzo2 opened at run time so
 * only images that ask for it carry it) and zstd (makedumpfile -z, level
 * 1, libzstd opened the same way). Each page is compressed on its
 * own, as the format's readers decompress it. A compressor's state belongs
 * to one thread. */
#ifndef LIFEBOAT_KDUMP_PAGECOMP_H
#define LIFEBOAT_KDUMP_PAGECOMP_H

#include <stddef.h>
#include <stdint.h>

#include "common/kdumpconf.h"

/* The descriptors' flags (and the header's status) for each kind. */
#define DUMP_DH_COMPRESSED_ZLIB 0x1
#define DUMP_DH_COMPRESSED_LZO 0x2
#define DUMP_DH_COMPRESSED_ZSTD 0x20

struct pagecomp {
	const char *name;
	uint32_t flag;                         /* DUMP_DH_COMPRESSED_* */
	/* The most compress() may write for len bytes in. */
	size_t (*bound)(size_t len);
	/* A state for one thread. Returns 0, -ENOMEM, or -ENOENT with the
	 * reason in why (the library is missing). */
	int (*state_new)(void **state, char *why, size_t why_size);
	/* Compress len bytes into out (bound(len) bytes); returns the
	 * compressed size, or 0 when it is not smaller than len (the page is
	 * then stored as it is, as readers expect). */
	size_t (*compress)(void *state, const uint8_t *in, size_t len, uint8_t *out);
	void (*state_free)(void *state);
};

const struct pagecomp *pagecomp_get(enum kdump_compress which);
/* "zlib", "lzo" or "zstd" for a DUMP_DH_COMPRESSED_* flag. */
const char *pagecomp_flag_name(uint32_t flag);

/* The LZO and zstd entries (kdump/pagecomp_lzo.c, pagecomp_zstd.c). */
extern const struct pagecomp pagecomp_lzo;
extern const struct pagecomp pagecomp_zstd;

#endif
