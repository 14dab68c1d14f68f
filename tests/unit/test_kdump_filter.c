/* test_kdump_filter: the dump levels on a synthetic kernel: a core whose
 * memory holds x86_64 page tables (a 2 MiB kernel mapping, a 4 KiB vmemmap
 * mapping), a mem_section and struct pages of known kinds. Checks the page
 * table walk, the section lookup, each level's exclusions and that the
 * writer's second bitmap is exactly the filter's result. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "kdump_fixture.h"
#include "kdump/diskdump.h"
#include "kdump/kvmem.h"
#include "kdump/pagefilter.h"

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

/* The kinds of the synthetic pages, by pfn. */
enum { PFN_ANON = 20, PFN_CACHE = 21, PFN_CACHE_PRIV = 22, PFN_BUDDY = 24, PFN_SLAB = 30,
       PFN_POISON = 31, PFN_OFFLINE = 32, PFN_SWAPCACHE = 33 };

struct synth {
	uint8_t *buf;
	size_t size;
	uint64_t mem_at;       /* file offset of physical address 0 */
};

static void poke64(struct synth *s, uint64_t paddr, uint64_t v)
{
	memcpy(s->buf + s->mem_at + paddr, &v, 8);
}

static void page_set(struct synth *s, uint64_t pfn, uint64_t flags, uint64_t mapping, int32_t mapcount,
		     uint64_t private)
{
	uint64_t at = 0xa000 + pfn * 64;

	poke64(s, at, flags);
	poke64(s, at + 24, mapping);
	poke64(s, at + 40, private);
	memcpy(s->buf + s->mem_at + at + 48, &mapcount, 4);
}

static void synth_build(struct synth *s)
{
	static const struct fixture_load load = { 0, PAGES * 4096, PAGES * 4096 };
	Elf64_Phdr ph;

	s->buf = fixture_core(&load, 1, info, 1, &s->size);
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
}

static uint64_t apply(struct elfcore *core, const struct vmcoreinfo *vi, unsigned level, uint8_t bits[PAGES / 8])
{
	struct pagefilter pf;
	uint64_t cleared;

	assert_int_equal(pagefilter_init(&pf, core, vi, level), 0);
	assert_true(pagefilter_chunk_pages(&pf) == PAGES);
	memset(bits, 0xff, PAGES / 8);
	cleared = pagefilter_apply(&pf, 0, PAGES, bits);
	pagefilter_free(&pf);
	return cleared;
}

static int kept(const uint8_t *bits, uint64_t pfn)
{
	return (bits[pfn / 8] >> (pfn % 8)) & 1;
}

static void synth_open(struct synth *s, struct elfcore *core, struct vmcoreinfo *vi)
{
	int fd;

	synth_build(s);
	fd = fixture_memfd(s->buf, s->size);
	assert_true(fd >= 0);
	assert_int_equal(elfcore_open(core, fd), 0);
	assert_int_equal(vmcoreinfo_parse(core->vmcoreinfo, core->vmcoreinfo_size, vi), 0);
	assert_true(vmcoreinfo_can_filter(vi));
}

static void synth_close(struct synth *s, struct elfcore *core)
{
	close(core->fd);
	elfcore_close(core);
	free(s->buf);
}

static void page_walk(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	struct kvmem kv;
	uint64_t pa, v;

	(void)state;
	synth_open(&s, &core, &vi);
	assert_int_equal(kvmem_init(&kv, &core, &vi), 0);
	assert_int_equal(kvmem_translate(&kv, KTEXT + 0x7008, &pa), 0);      /* 2 MiB page */
	assert_true(pa == 0x7008);
	assert_int_equal(kvmem_translate(&kv, VMEMMAP + 0x40, &pa), 0);      /* 4 KiB page */
	assert_true(pa == 0xa040);
	assert_int_equal(kvmem_read(&kv, KTEXT + 0x7000, &v, 8), 0);
	assert_true(v == KTEXT + 0x8000);
	assert_int_equal(kvmem_translate(&kv, VMEMMAP + 0x1000, &pa), -EFAULT); /* not mapped */
	assert_int_equal(kvmem_translate(&kv, 0xffff888000000000ULL, &pa), -EFAULT);
	synth_close(&s, &core);
}

/* With 5-level paging the walk starts one level higher: page 9 holds the
 * top table, whose last entry leads to the 4-level tree above. */
static void page_walk_5level(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	struct kvmem kv;
	uint64_t pa;

	(void)state;
	synth_open(&s, &core, &vi);
	vi.init_top_pgt = (int64_t)(KTEXT + 0x9000);
	vi.pgtable_l5 = 1;
	/* Without the entry, nothing is mapped. */
	assert_int_equal(kvmem_init(&kv, &core, &vi), 0);
	assert_int_equal(kvmem_translate(&kv, VMEMMAP + 0x40, &pa), -EFAULT);
	close(core.fd);
	elfcore_close(&core);
	poke64(&s, 0x9000 + 511 * 8, 0x1000 | P | RW);
	assert_int_equal(elfcore_open(&core, fixture_memfd(s.buf, s.size)), 0);
	assert_int_equal(kvmem_init(&kv, &core, &vi), 0);
	assert_int_equal(kvmem_translate(&kv, VMEMMAP + 0x40, &pa), 0);
	assert_true(pa == 0xa040);
	assert_int_equal(kvmem_translate(&kv, KTEXT + 0x123456, &pa), 0);
	assert_true(pa == 0x123456);
	synth_close(&s, &core);
}

static void levels(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	uint8_t bits[PAGES / 8];

	(void)state;
	synth_open(&s, &core, &vi);
	/* Poisoned and offline pages go at every level. */
	assert_int_equal(apply(&core, &vi, 1, bits), 2);
	assert_false(kept(bits, PFN_POISON));
	assert_false(kept(bits, PFN_OFFLINE));
	assert_int_equal(apply(&core, &vi, 2, bits), 4);
	assert_false(kept(bits, PFN_CACHE));
	assert_true(kept(bits, PFN_CACHE_PRIV));
	assert_false(kept(bits, PFN_SWAPCACHE));
	assert_int_equal(apply(&core, &vi, 4, bits), 5);
	assert_false(kept(bits, PFN_CACHE_PRIV));
	assert_true(kept(bits, PFN_ANON));
	assert_int_equal(apply(&core, &vi, 8, bits), 3);
	assert_false(kept(bits, PFN_ANON));
	assert_int_equal(apply(&core, &vi, 16, bits), 6);
	for (uint64_t pfn = PFN_BUDDY; pfn < PFN_BUDDY + 4; pfn++)
		assert_false(kept(bits, pfn));
	assert_true(kept(bits, PFN_BUDDY + 4));
	assert_true(kept(bits, PFN_SLAB));
	assert_int_equal(apply(&core, &vi, 31, bits), 10);
	for (uint64_t pfn = 0; pfn < 20; pfn++)
		assert_true(kept(bits, pfn));
	synth_close(&s, &core);
}

/* The writer's second bitmap is the filter's result at that level. */
static void writer_uses_filter(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	struct diskdump_opts opts = { .dump_level = 31 };
	struct diskdump_stats st;
	struct dump_sink sink;
	uint8_t want[PAGES / 8], got[PAGES / 8], head[4096];
	int out = memfd_create("dump", 0);
	uint64_t bound;
	uint32_t sub, bmb;

	(void)state;
	synth_open(&s, &core, &vi);
	apply(&core, &vi, 31, want);
	dump_sink_init(&sink, out, false);
	assert_int_equal(diskdump_write(&core, &vi, &sink, &opts, &st), 0);
	assert_int_equal(st.filtered_by_kind, 1);
	assert_true(st.pages_filtered == 10);
	assert_true(st.pages_total == PAGES);
	assert_int_equal(pread(out, head, sizeof(head), 0), (ssize_t)sizeof(head));
	memcpy(&sub, head + 432, 4);
	memcpy(&bmb, head + 436, 4);
	assert_int_equal(pread(out, got, sizeof(got), (off_t)(1 + sub + bmb / 2) * 4096), (ssize_t)sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
	/* The size bound holds the dump. */
	assert_int_equal(diskdump_bound(&core, &vi, 31, &bound), 0);
	assert_true(bound >= st.bytes);
	close(out);
	synth_close(&s, &core);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(page_walk),
		cmocka_unit_test(page_walk_5level),
		cmocka_unit_test(levels),
		cmocka_unit_test(writer_uses_filter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
