/* pagefilter: which pages a dump level leaves out, decided from each page's
 * struct page (flags, mapping, _mapcount, private) read through mem_section. */
#include "kdump/pagefilter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kdump/vmcoreinfo_check.h"

/* mapping's low bit marks anonymous memory (PAGE_MAPPING_ANON). */
#define MAPPING_ANON 0x1ULL
/* The low bits of section_mem_map are flags, not address (SECTION_MAP_MASK). */
#define SECTION_MAP_FLAGS 0x3fULL
#define SECTION_PRESENT 0x1ULL
#define MAX_BUDDY_ORDER 20
/* Pages decided at a time: 256 KiB of struct pages, not a whole section's
 * 2 MiB. Free blocks are aligned to their size, so none up to order 12
 * crosses a chunk's edge (the kernel's largest is order 10). */
#define CHUNK_PAGES 4096ULL

static int flag_set(uint64_t flags, int64_t bit)
{
	return bit >= 0 && bit < 64 && (flags >> bit) & 1;
}

unsigned pagefilter_exclude_bits(const struct vmcoreinfo *vi, const struct page_fields *p)
{
	int slab = flag_set(p->flags, vi->pg_slab);
	int cache;

	if (flag_set(p->flags, vi->pg_hwpoison) ||
	    (vi->offline_mapcount != VI_UNSET && p->mapcount == vi->offline_mapcount))
		return DL_ALWAYS;
	/* A free page's _mapcount holds the buddy type; slab pages reuse it. */
	if (!slab && p->mapcount == vi->buddy_mapcount)
		return DL_FREE;
	if (slab)
		return 0;
	if (p->mapping & MAPPING_ANON)
		return DL_USER;
	/* Swap cache counts as cache only when the page is swap-backed, as the
	 * flag bit is shared with another meaning otherwise. */
	cache = flag_set(p->flags, vi->pg_lru) ||
		(flag_set(p->flags, vi->pg_swapcache) &&
		 (vi->pg_swapbacked == VI_UNSET || flag_set(p->flags, vi->pg_swapbacked)));
	if (!cache)
		return 0;
	return flag_set(p->flags, vi->pg_private) ? DL_CACHE_PRIVATE : DL_CACHE | DL_CACHE_PRIVATE;
}

int pagefilter_init(struct pagefilter *pf, const struct elfcore *core,
		    const struct vmcoreinfo *vi, unsigned level)
{
	int shift = __builtin_ctzll((uint64_t)vi->page_size);
	int r;

	memset(pf, 0, sizeof(*pf));
	pf->vi = vi;
	pf->level = level;
	pf->section_nr = UINT64_MAX;
	/* Every size and offset used below was checked against its structure. */
	r = vmcoreinfo_check_filter(vi, NULL, 0);
	if (r == 0)
		r = kvmem_init(&pf->kv, core, vi);
	if (r < 0)
		return r;
	pf->pages_per_section = 1ULL << (vi->section_size_bits - shift);
	pf->chunk = pf->pages_per_section < CHUNK_PAGES ? pf->pages_per_section : CHUNK_PAGES;
	pf->pages = malloc(pf->chunk * (uint64_t)vi->size_page);
	return pf->pages ? 0 : -ENOMEM;
}

void pagefilter_free(struct pagefilter *pf)
{
	free(pf->pages);
	pf->pages = NULL;
}

uint64_t pagefilter_chunk_pages(const struct pagefilter *pf)
{
	return pf->pages ? pf->chunk : 1ULL << 15;
}

/* The virtual address of section nr's first struct page, or 0. */
static uint64_t section_lookup(struct pagefilter *pf, uint64_t nr)
{
	const struct vmcoreinfo *vi = pf->vi;
	uint64_t per_root = (uint64_t)(vi->page_size / vi->size_mem_section);
	uint64_t root, map;

	if (nr / per_root >= (uint64_t)vi->mem_section_len)
		return 0;
	if (kvmem_read(&pf->kv, (uint64_t)vi->mem_section + nr / per_root * 8, &root, 8) < 0 || !root)
		return 0;
	if (kvmem_read(&pf->kv, root + nr % per_root * (uint64_t)vi->size_mem_section +
		       (uint64_t)vi->off_section_mem_map, &map, 8) < 0)
		return 0;
	if (!(map & SECTION_PRESENT))
		return 0;
	/* The stored value is mem_map minus the section's first pfn, in pages. */
	return (map & ~SECTION_MAP_FLAGS) + nr * pf->pages_per_section * (uint64_t)vi->size_page;
}

/* The same, looked up once for the chunks of a section: the lookup reads
 * the kernel's data away from mem_map, which would move kvmem's window. */
static uint64_t section_mem_map(struct pagefilter *pf, uint64_t nr)
{
	if (pf->section_nr != nr) {
		pf->section_map = section_lookup(pf, nr);
		pf->section_nr = nr;
	}
	return pf->section_map;
}

static void page_fields_get(const struct vmcoreinfo *vi, const uint8_t *sp, struct page_fields *p)
{
	memcpy(&p->flags, sp + vi->off_flags, 8);
	memcpy(&p->mapping, sp + vi->off_mapping, 8);
	memcpy(&p->private, sp + vi->off_private, 8);
	memcpy(&p->mapcount, sp + vi->off_mapcount, 4);
}

/* The pages a compound head at i stands for (1 << its order, read from
 * the first tail page as the kernel keeps it; up to the chunk's end), or
 * 1 when it is no head or the note does not say how to tell. A THP's
 * tail pages carry no kind of their own: without this, an anonymous or
 * page cache THP would be left out by its head page only. */
static uint64_t compound_pages(const struct pagefilter *pf, const struct page_fields *p, uint64_t i,
			       uint64_t count)
{
	const struct vmcoreinfo *vi = pf->vi;
	uint64_t size = (uint64_t)vi->size_page, run;
	uint8_t order;

	/* VI_UNSET is negative: a note without the keys fails here too. */
	if (vi->pg_head_mask <= 0 || vi->off_compound_order < 0 || (uint64_t)vi->off_compound_order >= size ||
	    !(p->flags & (uint64_t)vi->pg_head_mask) || i + 1 >= count)
		return 1;
	order = pf->pages[(i + 1) * size + (uint64_t)vi->off_compound_order];
	if (order == 0 || order >= MAX_BUDDY_ORDER)
		return 1;
	run = 1ULL << order;
	return run > count - i ? count - i : run;
}

static uint64_t clear_bits(uint8_t *bits, uint64_t from, uint64_t n)
{
	uint64_t cleared = 0;

	for (uint64_t i = from; i < from + n; i++)
		if (bits[i / 8] & (1u << (i % 8))) {
			bits[i / 8] &= (uint8_t)~(1u << (i % 8));
			cleared++;
		}
	return cleared;
}

uint64_t pagefilter_apply(struct pagefilter *pf, uint64_t start, uint64_t count, uint8_t *bits)
{
	const struct vmcoreinfo *vi = pf->vi;
	uint64_t map, cleared = 0, size = (uint64_t)vi->size_page;

	if (!pf->pages || count > pf->chunk || start % pf->chunk)
		return 0;
	map = section_mem_map(pf, start / pf->pages_per_section);
	if (!map || kvmem_read(&pf->kv, map + start % pf->pages_per_section * size, pf->pages, count * size) < 0)
		return 0;
	for (uint64_t i = 0; i < count; i++) {
		struct page_fields p;
		unsigned ex;

		page_fields_get(vi, pf->pages + i * size, &p);
		ex = pagefilter_exclude_bits(vi, &p);
		if (!(ex & (pf->level | DL_ALWAYS)))
			continue;
		if (ex == DL_FREE && p.private < MAX_BUDDY_ORDER) {
			uint64_t run = 1ULL << p.private;

			run = run > count - i ? count - i : run;
			cleared += clear_bits(bits, i, run);
			i += run - 1;
			continue;
		}
		if (ex & (DL_USER | DL_CACHE | DL_CACHE_PRIVATE)) {
			uint64_t run = compound_pages(pf, &p, i, count);

			cleared += clear_bits(bits, i, run);
			i += run - 1;
			continue;
		}
		cleared += clear_bits(bits, i, 1);
	}
	return cleared;
}
