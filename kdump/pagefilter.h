/* pagefilter: which pages a dump level leaves out, decided from each page's
 * struct page (flags, mapping, _mapcount, private) read through mem_section. */
#ifndef LIFEBOAT_KDUMP_PAGEFILTER_H
#define LIFEBOAT_KDUMP_PAGEFILTER_H

#include <stdint.h>

#include "kdump/elfcore.h"
#include "kdump/kvmem.h"
#include "kdump/vmcoreinfo.h"

/* makedumpfile's -d bits. */
enum dump_level_bit {
	DL_ZERO = 1,           /* pages of zeros (decided by content, not here) */
	DL_CACHE = 2,          /* page cache without private data */
	DL_CACHE_PRIVATE = 4,  /* all page cache */
	DL_USER = 8,           /* anonymous user memory */
	DL_FREE = 16,          /* pages in the buddy allocator */
};
#define DL_ALWAYS 0x100u       /* poisoned or offline: never worth reading */

struct page_fields {
	uint64_t flags, mapping, private;
	int32_t mapcount;
};

/* The dump level bits any of which leaves this page out (0: always kept).
 * A free page's run of 1 << private pages is the caller's to skip. */
unsigned pagefilter_exclude_bits(const struct vmcoreinfo *vi, const struct page_fields *p);

struct pagefilter {
	struct kvmem kv;
	const struct vmcoreinfo *vi;
	unsigned level;
	uint64_t pages_per_section;
	uint64_t chunk;            /* pages decided at a time, within a section */
	uint8_t *pages;            /* one chunk's struct pages */
	uint64_t section_nr;       /* the last section looked up (UINT64_MAX: none) */
	uint64_t section_map;      /* and its first struct page's address, or 0 */
};

/* Returns 0; -EOPNOTSUPP when the note lacks what filtering needs, -EINVAL
 * when its sizes do not fit (vmcoreinfo_check_filter says which): the
 * caller then keeps every page but zero ones; -ENOMEM. */
int pagefilter_init(struct pagefilter *pf, const struct elfcore *core,
		    const struct vmcoreinfo *vi, unsigned level);
void pagefilter_free(struct pagefilter *pf);
/* Pages per chunk: the caller's chunks start at multiples of this. */
uint64_t pagefilter_chunk_pages(const struct pagefilter *pf);
/* Clear in bits (bit i is pfn start + i, LSB first) the pages the level
 * leaves out among count pages from start. Pages whose struct page cannot
 * be read are kept. Returns the number of pages cleared. */
uint64_t pagefilter_apply(struct pagefilter *pf, uint64_t start, uint64_t count, uint8_t *bits);

#endif
