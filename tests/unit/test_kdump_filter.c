/* test_kdump_filter: the dump levels on a synthetic kernel: a core whose
 * memory holds x86_64 page tables (a 2 MiB kernel mapping, a 4 KiB vmemmap
 * mapping), a mem_section and struct pages of known kinds. Checks the page
 * table walk and its cache, the section lookup and its cache, each level's exclusions and that the
 * writer's second bitmap is exactly the filter's result. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "kdump/diskdump.h"
#include "kdump/kvmem.h"
#include "kdump/pagefilter.h"
#include "kdump/vmcoreinfo_check.h"
#include "tests/unit/kdump_synth.h"

static void synth_open(struct synth *s, struct elfcore *core, struct vmcoreinfo *vi)
{
	int fd;

	synth_build(s);
	fd = fixture_memfd(s->buf, s->size);
	assert_true(fd >= 0);
	assert_int_equal(elfcore_open(core, fd), 0);
	assert_int_equal(vmcoreinfo_parse(core->vmcoreinfo, core->vmcoreinfo_size, vi), 0);
	assert_int_equal(vmcoreinfo_check_filter(vi, NULL, 0), 0);
}

static void synth_close(struct synth *s, struct elfcore *core)
{
	close(core->fd);
	elfcore_close(core);
	free(s->buf);
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

/* Change the core under an open elfcore: its windows map the file, so
 * they see the new bytes. */
static void core_poke64(const struct synth *s, const struct elfcore *core, uint64_t paddr, uint64_t v)
{
	assert_int_equal(pwrite(core->fd, &v, 8, (off_t)(s->mem_at + paddr)), 8);
}

/* The last KVMEM_CACHED mappings are kept, and the oldest goes first: a
 * translation cleared from the page table still resolves while cached. */
/* An anonymous THP of order 3 at pfns 40-47 (its head's flag bit 16, its
 * order in the first tail page at byte 32) and a slab compound of order
 * 2 at 52-55; the note's compound keys set by hand, as the synthetic
 * note has none. */
#define PFN_THP 40
#define PFN_SLAB_HEAD 52
#define HEAD_BIT (1ULL << 16)

static void thp_open(struct synth *s, struct elfcore *core, struct vmcoreinfo *vi, uint8_t order)
{
	int fd;

	synth_build(s);
	page_set(s, PFN_THP, 1 << 4 | HEAD_BIT, 0xffff888012345001ULL, 0, 0);
	s->buf[s->mem_at + 0xa000 + (PFN_THP + 1) * 64 + 32] = order;
	page_set(s, PFN_SLAB_HEAD, 1 << 9 | HEAD_BIT, 0, -129, 0);
	s->buf[s->mem_at + 0xa000 + (PFN_SLAB_HEAD + 1) * 64 + 32] = 2;
	fd = fixture_memfd(s->buf, s->size);
	assert_true(fd >= 0);
	assert_int_equal(elfcore_open(core, fd), 0);
	assert_int_equal(vmcoreinfo_parse(core->vmcoreinfo, core->vmcoreinfo_size, vi), 0);
	vi->pg_head_mask = (int64_t)HEAD_BIT;
	vi->off_compound_order = 32;
}

/* A huge page left out by its head goes whole, as makedumpfile leaves it
 * out: its tail pages carry no kind of their own. A kept compound (slab)
 * stays whole; a note without the keys, or an order past any real one,
 * leaves the tails kept (a larger dump, never a lossy one). */
static void compound_pages_whole(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	uint8_t bits[PAGES / 8];

	(void)state;
	thp_open(&s, &core, &vi, 3);
	/* Poisoned, offline, the small anonymous page and the THP. */
	assert_int_equal(apply(&core, &vi, 8, bits), 3 + 8);
	for (uint64_t pfn = PFN_THP; pfn < PFN_THP + 8; pfn++)
		assert_false(kept(bits, pfn));
	assert_true(kept(bits, PFN_THP + 8));
	assert_int_equal(apply(&core, &vi, 31, bits), 10 + 8);
	for (uint64_t pfn = PFN_SLAB_HEAD; pfn < PFN_SLAB_HEAD + 4; pfn++)
		assert_true(kept(bits, pfn));
	vi.pg_head_mask = VI_UNSET;
	assert_int_equal(apply(&core, &vi, 8, bits), 3 + 1);
	assert_true(kept(bits, PFN_THP + 1));
	vi.pg_head_mask = (int64_t)HEAD_BIT;
	vi.off_compound_order = 64;      /* past the struct page: not read */
	assert_int_equal(apply(&core, &vi, 8, bits), 3 + 1);
	synth_close(&s, &core);

	thp_open(&s, &core, &vi, 200);
	assert_int_equal(apply(&core, &vi, 8, bits), 3 + 1);
	assert_true(kept(bits, PFN_THP + 1));
	synth_close(&s, &core);
}

static void translations_cached(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	struct kvmem kv;
	uint64_t pa;

	(void)state;
	synth_open(&s, &core, &vi);
	for (uint64_t i = 1; i <= KVMEM_CACHED; i++)    /* vmemmap pages 1.. -> pages 16.. */
		core_poke64(&s, &core, 0x4000 + ((VMEMMAP >> 12) & 511) * 8 + i * 8, (0xf + i) << 12 | P | RW);
	assert_int_equal(kvmem_init(&kv, &core, &vi), 0);
	assert_int_equal(kvmem_translate(&kv, VMEMMAP + 0x10, &pa), 0);
	assert_true(pa == 0xa010);
	core_poke64(&s, &core, 0x4000 + ((VMEMMAP >> 12) & 511) * 8, 0);
	for (uint64_t i = 1; i < KVMEM_CACHED; i++) {
		assert_int_equal(kvmem_translate(&kv, VMEMMAP + i * 0x1000 + 8, &pa), 0);
		assert_true(pa == ((0xf + i) << 12) + 8);
		assert_int_equal(kvmem_translate(&kv, VMEMMAP + 0x20, &pa), 0);   /* cached */
		assert_true(pa == 0xa020);
	}
	assert_int_equal(kvmem_translate(&kv, VMEMMAP + KVMEM_CACHED * 0x1000, &pa), 0);
	assert_int_equal(kvmem_translate(&kv, VMEMMAP, &pa), -EFAULT);            /* replaced */
	synth_close(&s, &core);
}

/* Each section is looked up once for its chunks, and never taken for
 * another: section 1 absent, then present with the same struct pages. */
static void sections_looked_up(void **state)
{
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	struct pagefilter pf;
	uint8_t bits[PAGES / 8];

	(void)state;
	synth_open(&s, &core, &vi);
	for (int present = 0; present <= 1; present++) {
		if (present)
			core_poke64(&s, &core, 0x8010, (VMEMMAP - PAGES * 64) | 0x1 | 0x2);
		assert_int_equal(pagefilter_init(&pf, &core, &vi, 31), 0);
		for (int round = 0; round < 2; round++) {
			memset(bits, 0xff, sizeof(bits));
			assert_true(pagefilter_apply(&pf, 0, PAGES, bits) == 10);
			memset(bits, 0xff, sizeof(bits));
			assert_true(pagefilter_apply(&pf, PAGES, PAGES, bits) == (present ? 10 : 0));
		}
		pagefilter_free(&pf);
	}
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

/* VMCOREINFO comes from the crashed kernel: sizes and offsets that do not
 * fit the structures they describe are refused before any memory is read
 * with them, and the writers then keep every page instead of dying. */
static void hostile_sizes_refused(void **state)
{
	static const struct {
		size_t field;
		int64_t value;
		const char *key;
	} cases[] = {
		/* SIZE(mem_section) > PAGESIZE made sections per root 0: SIGFPE. */
		{ offsetof(struct vmcoreinfo, size_mem_section), 8192, "SIZE(mem_section)" },
		{ offsetof(struct vmcoreinfo, size_mem_section), -16, "SIZE(mem_section)" },
		/* struct page fields past SIZE(page): reads past the chunk's buffer. */
		{ offsetof(struct vmcoreinfo, off_mapping), 1000, "OFFSET(page.mapping)" },
		{ offsetof(struct vmcoreinfo, off_private), 60, "OFFSET(page.private)" },
		{ offsetof(struct vmcoreinfo, off_mapcount), 62, "OFFSET(page._mapcount)" },
		{ offsetof(struct vmcoreinfo, off_flags), -8, "OFFSET(page.flags)" },
		{ offsetof(struct vmcoreinfo, off_section_mem_map), 12, "OFFSET(mem_section.section_mem_map)" },
		{ offsetof(struct vmcoreinfo, size_page), 4, "SIZE(page)" },
		{ offsetof(struct vmcoreinfo, section_size_bits), 12, "NUMBER(SECTION_SIZE_BITS)" },
		{ offsetof(struct vmcoreinfo, mem_section_len), 0, "LENGTH(mem_section)" },
	};
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi, good;
	struct pagefilter pf;
	char why[200];

	(void)state;
	synth_open(&s, &core, &good);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diskdump_opts opts = { .dump_level = 31 };
		struct diskdump_stats st;
		struct dump_sink sink;
		int out = memfd_create("dump", 0);

		vi = good;
		*(int64_t *)((char *)&vi + cases[i].field) = cases[i].value;
		why[0] = '\0';
		assert_int_equal(vmcoreinfo_check_filter(&vi, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, cases[i].key));
		assert_int_equal(pagefilter_init(&pf, &core, &vi, 31), -EINVAL);
		pagefilter_free(&pf);
		/* The writer goes on without filtering: every page kept. */
		dump_sink_init(&sink, out, false);
		assert_int_equal(diskdump_write(&core, &vi, &sink, &opts, &st), 0);
		assert_int_equal(st.filtered_by_kind, 0);
		assert_true(st.pages_total == PAGES);
		assert_true(st.pages_filtered == 0);
		close(out);
	}
	/* A key the kernel did not export is not nonsense: just no filtering. */
	vi = good;
	vi.off_private = VI_UNSET;
	assert_int_equal(vmcoreinfo_check_filter(&vi, why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "OFFSET(page.private)"));
	assert_int_equal(vmcoreinfo_check_filter(&good, why, sizeof(why)), 0);
	synth_close(&s, &core);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(page_walk),
		cmocka_unit_test(page_walk_5level),
		cmocka_unit_test(levels),
		cmocka_unit_test(compound_pages_whole),
		cmocka_unit_test(translations_cached),
		cmocka_unit_test(sections_looked_up),
		cmocka_unit_test(writer_uses_filter),
		cmocka_unit_test(hostile_sizes_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
