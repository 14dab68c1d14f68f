/* diskdump: write a core in makedumpfile's kdump-compressed format: the
 * "KDUMP   " header, the sub header with the notes and VMCOREINFO, the
 * bitmap of present pages, the bitmap of dumped pages, a descriptor per
 * dumped page, then the pages, each compressed with zlib or LZO
 * (kdump/pagecomp.h) on every CPU the capture has (kdump/pagepool.h), in
 * their order.
 *
 * Two passes over memory, chunk by chunk, so memory use does not grow with
 * the machine's RAM: the first counts the pages the dump level keeps (from
 * the struct pages alone), which fixes where the page data starts; the
 * second decides again, reads, compresses and writes. As makedumpfile does,
 * level bit 1 does not drop zero pages from the bitmap: they all share one
 * stored page of zeros, so readers find them. */
#ifndef LIFEBOAT_KDUMP_DISKDUMP_H
#define LIFEBOAT_KDUMP_DISKDUMP_H

#include <stdint.h>

#include "kdump/dumpsink.h"
#include "kdump/elfcore.h"
#include "kdump/pagecomp.h"
#include "kdump/vmcoreinfo.h"

/* The header's status: the pages' compression, and not complete yet. */
#define DUMP_DH_COMPRESSED_INCOMPLETE 0x8
#define DISKDUMP_HEADER_VERSION 6
#define DISKDUMP_SUBHDR_SIZE 104
#define DISKDUMP_DESC_SIZE 24

struct diskdump_stats {
	uint64_t pages_total;      /* present page frames */
	uint64_t pages_written;    /* with their own data */
	uint64_t pages_compressed; /* of those, stored compressed */
	uint64_t pages_zero;       /* zero pages sharing one stored page */
	uint64_t pages_filtered;   /* left out by page kind */
	uint64_t bytes;            /* size of the dump */
	int filtered_by_kind;      /* 0 when the note did not allow it */
	uint32_t compress_flag;    /* the pages' DUMP_DH_COMPRESSED_* */
	unsigned threads;          /* compressing threads started (0: the caller) */
	char fallback_why[200];    /* when opts' compressor could not be had and
				      zlib was used: why; else empty */
};

typedef void (*diskdump_progress_fn)(void *ctx, uint64_t done, uint64_t total);

struct diskdump_opts {
	unsigned dump_level;               /* makedumpfile's -d */
	const char *nodename;              /* for the header's utsname; may be NULL */
	enum kdump_compress compress;      /* the pages' compressor */
	unsigned threads;                  /* compressing threads; 0: the caller alone */
	diskdump_progress_fn progress;     /* may be NULL */
	void *progress_ctx;
};

/* Write core to sink. vi may be NULL (no VMCOREINFO: only zero pages can
 * be left out). Returns 0 or -errno (-EIO reading the core, the sink's
 * error writing). */
int diskdump_write(const struct elfcore *core, const struct vmcoreinfo *vi,
		   struct dump_sink *sink, const struct diskdump_opts *opts,
		   struct diskdump_stats *stats);

/* The most the dump can take (every kept page stored uncompressed), found
 * by the first pass alone, so a target without that much room is skipped
 * before anything is written. Returns 0 or -errno. */
int diskdump_bound(const struct elfcore *core, const struct vmcoreinfo *vi, unsigned level, uint64_t *bytes);

#endif
