/* kdump_synth: a synthetic kernel in an ELF core, for the page filter, the
 * printk reader and the writers' tests and fuzz targets: x86_64 page tables
 * (a 2 MiB kernel mapping, a 4 KiB vmemmap mapping), a mem_section, struct
 * pages of known kinds and a printk ring of two records, in one 64-page
 * range of physical memory. */
#ifndef LIFEBOAT_TEST_KDUMP_SYNTH_H
#define LIFEBOAT_TEST_KDUMP_SYNTH_H

#include "kdump/elfcore.h"
#include "kdump/vmcoreinfo.h"
#include "tests/unit/kdump_fixture.h"
#include "tests/unit/kdump_ring.h"

#define KTEXT 0xffffffff80000000ULL
#define VMEMMAP 0xffffea0000000000ULL
#define PAGES 64               /* one section of 2^18 bytes */
#define P 0x1ULL               /* present */
#define RW 0x2ULL
#define PSE 0x80ULL

static const char info[] =
	"OSRELEASE=6.1.0-synthetic\nPAGESIZE=4096\n"
	"SYMBOL(init_top_pgt)=ffffffff80001000\nNUMBER(phys_base)=0\nNUMBER(pgtable_l5_enabled)=0\n"
	"SYMBOL(mem_section)=ffffffff80007000\nLENGTH(mem_section)=1\nSIZE(mem_section)=16\n"
	"OFFSET(mem_section.section_mem_map)=0\nNUMBER(SECTION_SIZE_BITS)=18\n"
	"SIZE(page)=64\nOFFSET(page.flags)=0\nOFFSET(page.mapping)=24\nOFFSET(page._mapcount)=48\n"
	"OFFSET(page.private)=40\nNUMBER(PG_lru)=4\nNUMBER(PG_private)=13\nNUMBER(PG_swapcache)=10\n"
	"NUMBER(PG_swapbacked)=19\nNUMBER(PG_slab)=9\nNUMBER(PG_hwpoison)=23\n"
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\nNUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)=-257\n";

/* The printk ring's keys (kdump_ring.h's, which come after info in the
 * note), with prb where synth_build puts it. */
#define SYNTH_PRB "SYMBOL(prb)=ffffffff8000c000\n"
#define SYNTH_DMESG "[    1.000000] synthetic line one\n[    2.500000] two\n"

/* The kinds of the synthetic pages, by pfn. */
enum { PFN_ANON = 20, PFN_CACHE = 21, PFN_CACHE_PRIV = 22, PFN_BUDDY = 24, PFN_SLAB = 30,
       PFN_POISON = 31, PFN_OFFLINE = 32, PFN_SWAPCACHE = 33 };

struct synth {
	uint8_t *buf;
	size_t size;
	uint64_t mem_at;       /* file offset of physical address 0 */
};

static inline void poke64(struct synth *s, uint64_t paddr, uint64_t v)
{
	memcpy(s->buf + s->mem_at + paddr, &v, 8);
}

static inline void page_set(struct synth *s, uint64_t pfn, uint64_t flags, uint64_t mapping, int32_t mapcount,
		     uint64_t private)
{
	uint64_t at = 0xa000 + pfn * 64;

	poke64(s, at, flags);
	poke64(s, at + 24, mapping);
	poke64(s, at + 40, private);
	memcpy(s->buf + s->mem_at + at + 48, &mapcount, 4);
}

/* The printk ring in pages 12-14, reached from prb at page 12: the ring
 * buffer structure at 0xc100, descriptors at 0xd000, infos at 0xd400, text
 * at 0xe000 (the kernel mapping makes KTEXT + x physical x). */
static inline void synth_ring(struct synth *s)
{
	uint8_t *m = s->buf + s->mem_at;

	memset(m + 0xc000, 0, 3 * 4096);
	poke64(s, 0xc000, KTEXT + 0xc100);
	m[0xc100] = 3;                                   /* desc_ring.count_bits */
	poke64(s, 0xc108, KTEXT + 0xd000);               /* descs */
	poke64(s, 0xc110, KTEXT + 0xd400);               /* infos */
	poke64(s, 0xc118, 2);                            /* head_id */
	poke64(s, 0xc120, 1);                            /* tail_id */
	m[0xc130] = 8;                                   /* text_data_ring.size_bits */
	poke64(s, 0xc138, KTEXT + 0xe000);               /* data */
	ring_put(m + 0xd000, m + 0xd400, m + 0xe000, 3, 8, 1, 2, 0x0, 0x28, 1000000000ULL,
		 "synthetic line one");
	ring_put(m + 0xd000, m + 0xd400, m + 0xe000, 3, 8, 2, 2, 0x28, 0x40, 2500000000ULL, "two");
}

/* The core with vmcoreinfo as its note (at most 7 KiB of text). */
static inline void synth_build_info(struct synth *s, const char *vmcoreinfo)
{
	static const struct fixture_load load = { 0, PAGES * 4096, PAGES * 4096 };
	Elf64_Phdr ph;

	s->buf = fixture_core(&load, 1, vmcoreinfo, 1, &s->size);
	memcpy(&ph, s->buf + sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr), sizeof(ph));
	s->mem_at = ph.p_offset;
	/* Page tables, pages 1-6: top at 1; the kernel text path 511 -> 5 -> 6
	 * with a 2 MiB page at 0; the vmemmap path -> 2 -> 3 -> 4 -> page 10. */
	memset(s->buf + s->mem_at + 0x1000, 0, 6 * 4096);
	poke64(s, 0x1000 + ((KTEXT >> 39) & 511) * 8, 0x5000 | P | RW);
	poke64(s, 0x5000 + ((KTEXT >> 30) & 511) * 8, 0x6000 | P | RW);
	poke64(s, 0x6000 + ((KTEXT >> 21) & 511) * 8, 0x0 | P | RW | PSE);
	poke64(s, 0x1000 + ((VMEMMAP >> 39) & 511) * 8, 0x2000 | P | RW);
	poke64(s, 0x2000 + ((VMEMMAP >> 30) & 511) * 8, 0x3000 | P | RW);
	poke64(s, 0x3000 + ((VMEMMAP >> 21) & 511) * 8, 0x4000 | P | RW);
	poke64(s, 0x4000 + ((VMEMMAP >> 12) & 511) * 8, 0xa000 | P | RW);
	/* mem_section: the root array at page 7, section 0 at page 8. */
	memset(s->buf + s->mem_at + 0x7000, 0, 3 * 4096);
	poke64(s, 0x7000, KTEXT + 0x8000);
	poke64(s, 0x8000, VMEMMAP | 0x1 | 0x2);          /* present, has a mem_map */
	/* struct pages at page 10: kernel pages by default. */
	for (uint64_t pfn = 0; pfn < PAGES; pfn++)
		page_set(s, pfn, 0, 0, -1, 0);
	page_set(s, PFN_ANON, 1 << 4, 0xffff888012345001ULL, 0, 0);
	page_set(s, PFN_CACHE, 1 << 4, 0xffff888012345000ULL, 0, 0);
	page_set(s, PFN_CACHE_PRIV, 1 << 4 | 1 << 13, 0xffff888012345000ULL, 0, 0);
	page_set(s, PFN_BUDDY, 0, 0, -129, 2);                    /* 4 free pages: 24-27 */
	page_set(s, PFN_SLAB, 1 << 9, 0, -129, 0);
	page_set(s, PFN_POISON, 1 << 23, 0, -1, 0);
	page_set(s, PFN_OFFLINE, 0, 0, -257, 0);
	page_set(s, PFN_SWAPCACHE, 1 << 10 | 1 << 19, 0, 0, 0);
	synth_ring(s);
}

static inline void synth_build(struct synth *s)
{
	synth_build_info(s, info);
}

#endif
