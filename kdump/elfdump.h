/* elfdump: write the core as an ELF core filtered by a dump level, the
 * other output format beside kdump-compressed (format=elf).
 *
 * The PT_LOAD segments cover only the pages the level keeps. A run of left
 * out pages inside a range splits its segment only when it is at least
 * min_gap pages long; a shorter run stays inside the segment as a hole of
 * the file (never written, so it takes no disk space and reads as zeros).
 * Zero pages (level bit 1) stay inside their segment as holes too, so the
 * set of pages an ELF reader finds is the set the kdump-compressed file
 * keeps, plus short runs of zeros.
 *
 * The program header count is bounded (ELFDUMP_MAX_SEGMENTS): if min_gap
 * gives more segments, the smallest power of two that does not is used.
 * Two passes over memory, one memory section at a time, as for the
 * kdump-compressed file: the first counts the runs of left out pages by
 * length, which fixes the segment count and where the data starts; the
 * second writes. Memory use does not grow with RAM. Level 0 writes every
 * byte of every range: a full copy. */
#ifndef LIFEBOAT_KDUMP_ELFDUMP_H
#define LIFEBOAT_KDUMP_ELFDUMP_H

#include <stddef.h>
#include <stdint.h>

#include "kdump/diskdump.h"
#include "kdump/elfcore.h"
#include "kdump/vmcoreinfo.h"

/* Split at every run of left out pages: inside a segment such a run reads
 * as zeros, which no ELF reader can tell from memory that was zero, while
 * a split costs a 56-byte header. The bound below is what limits the count
 * (docs/kdump.md, "The ELF file", has the measurement). */
#define ELFDUMP_MIN_GAP 1
/* One PT_NOTE plus this many PT_LOADs is what elfcore_open accepts. */
#define ELFDUMP_MAX_SEGMENTS (ELFCORE_MAX_LOADS - 1)

struct elfdump_opts {
	unsigned dump_level;               /* makedumpfile's -d */
	uint64_t min_gap;                  /* pages, rounded up to a power of two; 0: ELFDUMP_MIN_GAP */
	uint64_t max_segments;             /* 0: ELFDUMP_MAX_SEGMENTS */
	diskdump_progress_fn progress;     /* may be NULL */
	void *progress_ctx;
};

struct elfdump_stats {
	uint64_t segments;         /* PT_LOADs written */
	uint64_t min_gap;          /* the one used, after any doubling */
	uint64_t pages_written;    /* pages (or parts at a range's edge) with data */
	uint64_t pages_zero;       /* kept zero pages, left as holes */
	uint64_t pages_filtered;   /* left out by kind (in a segment's hole or not) */
	uint64_t bytes;            /* the file's size, holes included */
	int filtered_by_kind;      /* 0 when the note did not allow it */
};

/* Write core to the file fd (which must be seekable; it is truncated to
 * its final size). vi may be NULL: nothing is then left out by kind.
 * Returns 0 or -errno (-EIO reading the core, the file's error writing). */
int elfdump_write(const struct elfcore *core, const struct vmcoreinfo *vi, int fd,
		  const struct elfdump_opts *opts, struct elfdump_stats *stats);

/* The most the file can take (the first pass alone), so a target without
 * that much room is skipped first. Returns 0 or -errno. */
int elfdump_bound(const struct elfcore *core, const struct vmcoreinfo *vi, unsigned level, uint64_t *bytes);

#endif
