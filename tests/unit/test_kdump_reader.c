/* test_kdump_reader: the ELF core reader and the VMCOREINFO parser on
 * synthetic cores, truncated cores and malformed notes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "kdump/diskdump.h"
#include "kdump/elfcore.h"
#include "kdump/vmcoreinfo.h"
#include "kdump/vmcoreinfo_check.h"
#include "tests/unit/kdump_fixture.h"

static const char info_text[] =
	"OSRELEASE=6.1.0-57-amd64\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_top_pgt)=ffffffff9e810000\n"
	"NUMBER(phys_base)=-369098752\n"
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
	"SIZE(page)=64\n"
	"OFFSET(page.flags)=0\n"
	"garbage line without equals\n"
	"SIZE(page)x=12\n"
	"NUMBER(PG_lru)=4z\n"
	"KERNELOFFSET=1be00000\n";

static void vmcoreinfo_values(void **state)
{
	struct vmcoreinfo vi;

	(void)state;
	assert_int_equal(vmcoreinfo_parse(info_text, strlen(info_text), &vi), 0);
	assert_string_equal(vi.osrelease, "6.1.0-57-amd64");
	assert_int_equal(vi.page_size, 4096);
	assert_true((uint64_t)vi.init_top_pgt == 0xffffffff9e810000ULL);
	assert_int_equal(vi.phys_base, -369098752);
	assert_int_equal(vi.buddy_mapcount, -129);
	assert_int_equal(vi.size_page, 64);
	assert_int_equal(vi.off_flags, 0);
	assert_int_equal(vi.kerneloffset, 0x1be00000);
	/* "4z" is not a number: the key stays unset rather than half-read. */
	assert_true(vi.pg_lru == VI_UNSET);
	assert_true(vi.mem_section == VI_UNSET);
	assert_int_equal(vmcoreinfo_check_filter(&vi, NULL, 0), -EOPNOTSUPP);
}

static void vmcoreinfo_needs_pagesize(void **state)
{
	const char *bad[] = { "OSRELEASE=6.1\n", "PAGESIZE=3000\n", "PAGESIZE=\n", "PAGESIZE=-4096\n", "" };
	struct vmcoreinfo vi;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(vmcoreinfo_parse(bad[i], strlen(bad[i]), &vi), -EINVAL);
	/* No trailing newline, and a length that cuts the text short. */
	assert_int_equal(vmcoreinfo_parse("PAGESIZE=65536", 14, &vi), 0);
	assert_int_equal(vi.page_size, 65536);
	assert_int_equal(vmcoreinfo_parse("PAGESIZE=4096", 11, &vi), -EINVAL);
}

static const struct fixture_load loads[] = {
	{ 0x1000, 0x9f000, 0x9f000 },     /* pfn 1..0x9f */
	{ 0x100000, 0x4000, 0x6000 },     /* last two pages not in the file */
	{ 0x200800, 0x800, 0x800 },       /* half a page */
};

static void core_open(struct elfcore *core, int nr_cpus, const char *info)
{
	size_t size;
	uint8_t *buf = fixture_core(loads, 3, info, nr_cpus, &size);
	int fd = fixture_memfd(buf, size);

	free(buf);
	assert_true(fd >= 0);
	assert_int_equal(elfcore_open(core, fd), 0);
}

static void core_headers_and_notes(void **state)
{
	struct elfcore core;
	struct vmcoreinfo vi;

	(void)state;
	core_open(&core, 2, info_text);
	assert_int_equal(core.machine, EM_X86_64);
	assert_int_equal(core.nloads, 3);
	assert_int_equal(core.nr_cpus, 2);
	assert_true(core.max_paddr == 0x201000);
	assert_non_null(core.vmcoreinfo);
	assert_int_equal(core.vmcoreinfo_size, strlen(info_text));
	assert_int_equal(vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi), 0);
	assert_string_equal(vi.osrelease, "6.1.0-57-amd64");
	close(core.fd);
	elfcore_close(&core);
	core_open(&core, 0, NULL);
	assert_null(core.vmcoreinfo);
	assert_int_equal(core.nr_cpus, 0);
	close(core.fd);
	elfcore_close(&core);
}

static void core_reads(void **state)
{
	struct elfcore core;
	uint8_t page[4096];

	(void)state;
	core_open(&core, 1, info_text);
	assert_int_equal(elfcore_read_phys(&core, 0x5000, page, 4096), 0);
	for (int i = 0; i < 4096; i++)
		assert_int_equal(page[i], fixture_byte(0x5000 + (uint64_t)i));
	/* Past the file size, inside the memory size: zeros. */
	memset(page, 0xaa, sizeof(page));
	assert_int_equal(elfcore_read_phys(&core, 0x104000, page, 4096), 0);
	for (int i = 0; i < 4096; i++)
		assert_int_equal(page[i], 0);
	assert_int_equal(elfcore_read_phys(&core, 0x0, page, 16), -ENOENT);
	assert_int_equal(elfcore_read_phys(&core, 0x9f800, page, 4096), -ENOENT);
	/* The half page: the covered half read, the rest zero. */
	assert_int_equal(elfcore_read_page(&core, 0x200000, page, 4096), 0);
	assert_int_equal(page[0], 0);
	assert_int_equal(page[0x800], fixture_byte(0x200800));
	assert_int_equal(elfcore_read_page(&core, 0x300000, page, 4096), -ENOENT);
	assert_true(elfcore_pfn_valid(&core, 0x200, 4096));
	assert_true(elfcore_pfn_valid(&core, 0x9f, 4096));
	assert_false(elfcore_pfn_valid(&core, 0xa0, 4096));
	assert_false(elfcore_pfn_valid(&core, 0, 4096));
	close(core.fd);
	elfcore_close(&core);
}

/* Reads of the pages and of the kernel's structures go through their own
 * windows: alternating between two places 8 MiB apart moves neither. */
static void core_two_windows(void **state)
{
	static const struct fixture_load big = { 0x100000, 12u << 20, 12u << 20 };
	struct elfcore core;
	uint8_t page[4096];
	size_t size;
	uint8_t *buf = fixture_core(&big, 1, info_text, 1, &size);
	int fd = fixture_memfd(buf, size);
	uint64_t data_off = 0, kernel_off = 0;

	(void)state;
	free(buf);
	assert_true(fd >= 0);
	assert_int_equal(elfcore_open(&core, fd), 0);
	for (uint64_t i = 0; i < 4; i++) {
		uint64_t pa = 0x100000 + i * 4096, ka = pa + (8u << 20);

		assert_int_equal(elfcore_read_phys(&core, pa, page, sizeof(page)), 0);
		assert_int_equal(page[100], fixture_byte(pa + 100));
		assert_int_equal(elfcore_read_kernel(&core, ka, page, sizeof(page)), 0);
		assert_int_equal(page[100], fixture_byte(ka + 100));
		if (i == 0) {
			data_off = core.win->data.off;
			kernel_off = core.win->kernel.off;
		}
		assert_true(core.win->data.off == data_off && core.win->kernel.off == kernel_off);
	}
	assert_true(data_off != kernel_off);
	close(fd);
	elfcore_close(&core);
}

/* Marking frames range by range gives what asking frame by frame gives,
 * at any chunk's start and length, with a range of size 0 off a frame's
 * edge and one on it. */
static void core_pfn_mark(void **state)
{
	static const struct fixture_load odd[] = {
		{ 0x1000, 0x9f000, 0x9f000 }, { 0x100000, 0x4000, 0x6000 }, { 0x200800, 0x800, 0x800 },
		{ 0x300800, 0, 0 }, { 0x301000, 0, 0 }, { 0x302fff, 0x2, 0x2 },
	};
	size_t size;
	uint8_t *buf = fixture_core(odd, 6, NULL, 0, &size), bits[0x400 / 8];
	struct elfcore core;
	int fd = fixture_memfd(buf, size);

	(void)state;
	assert_int_equal(elfcore_open(&core, fd), 0);
	for (uint64_t start = 0; start < 0x310; start += 0x61) {
		memset(bits, 0, sizeof(bits));
		elfcore_pfn_mark(&core, start, 0x3ff, 4096, bits);
		for (uint64_t i = 0; i < 0x3ff; i++)
			assert_int_equal((bits[i / 8] >> (i % 8)) & 1, elfcore_pfn_valid(&core, start + i, 4096));
		assert_int_equal(bits[0x3ff / 8] >> 7, 0);
	}
	close(fd);
	elfcore_close(&core);
	free(buf);
}

/* Every prefix of a core is either refused or read consistently. */
static void core_truncated(void **state)
{
	size_t size;
	uint8_t *buf = fixture_core(loads, 3, info_text, 1, &size);
	size_t notes_end = sizeof(Elf64_Ehdr) + 4 * sizeof(Elf64_Phdr);

	(void)state;
	for (size_t len = 0; len < size; len += len < 2048 ? 1 : 4093) {
		struct elfcore core;
		int fd = fixture_memfd(buf, len);
		int r = elfcore_open(&core, fd);

		if (len < sizeof(Elf64_Ehdr))
			assert_int_equal(r, -ENOEXEC);
		else if (len < notes_end)
			assert_int_equal(r, -EIO);
		if (r == 0) {
			uint8_t page[4096];

			/* A range whose bytes the cut removed is left out. */
			r = elfcore_read_phys(&core, 0x90000, page, sizeof(page));
			assert_true(r == 0 || r == -ENOENT);
			elfcore_close(&core);
		}
		close(fd);
	}
	free(buf);
}

static void core_refused(void **state)
{
	size_t size;
	uint8_t *buf = fixture_core(loads, 3, info_text, 1, &size);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	struct elfcore core;
	int fd;

	(void)state;
	eh->e_type = ET_EXEC;
	fd = fixture_memfd(buf, size);
	assert_int_equal(elfcore_open(&core, fd), -ENOEXEC);
	close(fd);
	eh->e_type = ET_CORE;
	eh->e_phentsize = 12;
	fd = fixture_memfd(buf, size);
	assert_int_equal(elfcore_open(&core, fd), -EINVAL);
	close(fd);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	free(buf);
}

/* A corrupt PT_LOAD is left out, with the others kept: one whose file size
 * exceeds its memory size, one whose bytes lie past the file's end, one
 * beyond any physical address (which made the writers walk every page
 * frame up to it: weeks at 2^62), and one past NUMBER(MAX_PHYSMEM_BITS). */
static void core_corrupt_loads_skipped(void **state)
{
	static const struct fixture_load five[] = {
		{ 0x1000, 0x2000, 0x2000 },
		{ 0x10000, 0x1000, 0x1000 },
		{ 0x20000, 0x1000, 0x1000 },
		{ 1ULL << 62, 0x1000, 0x1000 },
		{ 1ULL << 39, 0x1000, 0x1000 },
	};
	size_t size;
	uint8_t *buf = fixture_core(five, 5, "PAGESIZE=4096\nNUMBER(MAX_PHYSMEM_BITS)=38\n", 1, &size);
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr));
	struct elfcore core;
	struct vmcoreinfo vi;
	struct timespec t0, t1;
	uint64_t bound;
	int fd;

	(void)state;
	ph[2].p_filesz = 0x100000;                 /* more file than memory */
	ph[3].p_offset = (uint64_t)size + 4096;    /* past the file's end */
	fd = fixture_memfd(buf, size);
	assert_int_equal(elfcore_open(&core, fd), 0);
	assert_int_equal(core.nloads, 2);
	assert_int_equal(core.loads_skipped, 3);
	assert_true(core.first_skipped.paddr == 0x10000);
	assert_true(core.max_paddr == (1ULL << 39) + 0x1000);
	assert_int_equal(vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi), 0);
	assert_int_equal(vmcoreinfo_phys_bits(&vi), 38);
	assert_int_equal(elfcore_limit_phys(&core, vmcoreinfo_phys_bits(&vi)), 1);
	assert_int_equal(core.nloads, 1);
	assert_int_equal(core.loads_skipped, 4);
	assert_true(core.max_paddr == 0x3000);
	/* The writer's size pass now covers three pages, at once. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(diskdump_bound(&core, &vi, 31, &bound), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 2);
	assert_true(bound < (1 << 20));
	/* A nonsense MAX_PHYSMEM_BITS is not used. */
	vi.max_physmem_bits = 99;
	assert_int_equal(vmcoreinfo_phys_bits(&vi), 0);
	vi.max_physmem_bits = VI_UNSET;
	assert_int_equal(vmcoreinfo_phys_bits(&vi), 0);
	close(fd);
	elfcore_close(&core);
	free(buf);
}

static void core_open_loads(struct elfcore *core, const struct fixture_load *loads, int n)
{
	size_t size;
	uint8_t *buf = fixture_core(loads, n, NULL, 1, &size);
	int fd = fixture_memfd(buf, size);

	free(buf);
	assert_int_equal(elfcore_open(core, fd), 0);
}

/* The audit's case (N8): one page just under 2^52 and no VMCOREINFO made
 * the writers walk 2^40 page frames (an hour) and write 256 GiB of
 * bitmaps. A core may reach ELFCORE_SPARSE_RATIO times what it holds, or
 * 2^40; the highest ranges beyond are left out, one by one. */
static void core_sparse_loads_skipped(void **state)
{
	static const struct fixture_load alone[] = { { (1ULL << 52) - 0x1000, 0x1000, 0x1000 } };
	static const struct fixture_load two_high[] = {
		{ 0, 0x1000, 1ULL << 20 },
		{ 1ULL << 45, 0x1000, 0x1000 },
		{ 1ULL << 44, 0x1000, 0x1000 },
	};
	static const struct fixture_load floor[] = {
		{ 0, 0x1000, 1ULL << 20 },
		{ (1ULL << 40) - 0x1000, 0x1000, 0x1000 },
	};
	/* 16 GiB held (beyond the file's bytes: zeros) reach 2^46, as a
	 * two-socket arm64 server's second socket does; 2^52 is too far. */
	static const struct fixture_load held[] = {
		{ 0, 0x1000, 1ULL << 34 },
		{ 1ULL << 46, 0x1000, (1ULL << 34) - 0x1000 },
		{ (1ULL << 52) - 0x1000, 0x1000, 0x1000 },
	};
	struct elfcore core;

	(void)state;
	core_open_loads(&core, alone, 1);
	assert_int_equal(core.nloads, 0);
	assert_int_equal(core.loads_skipped, 1);
	assert_true(core.max_paddr == 0);
	elfcore_close(&core);
	core_open_loads(&core, two_high, 3);
	assert_int_equal(core.nloads, 1);
	assert_int_equal(core.loads_skipped, 2);
	assert_true(core.first_skipped.paddr == 1ULL << 45);
	assert_true(core.max_paddr == 1ULL << 20);
	elfcore_close(&core);
	core_open_loads(&core, floor, 2);
	assert_int_equal(core.nloads, 2);
	assert_true(core.max_paddr == 1ULL << 40);
	elfcore_close(&core);
	core_open_loads(&core, held, 3);
	assert_int_equal(core.nloads, 2);
	assert_int_equal(core.loads_skipped, 1);
	assert_true(core.max_paddr == (1ULL << 46) + (1ULL << 34) - 0x1000);
	elfcore_close(&core);
}

/* Overlapping ranges (the kernel's text is in the direct map too): a page
 * wholly inside the second range but only partly inside the first reads
 * whole, not as missing. */
static void core_overlapping_loads(void **state)
{
	static const struct fixture_load two[] = {
		{ 0x1000, 0x800, 0x800 },      /* the first half of page 1 */
		{ 0x1000, 0x2000, 0x2000 },    /* pages 1 and 2 */
	};
	size_t size;
	uint8_t *buf = fixture_core(two, 2, NULL, 0, &size);
	uint8_t page[4096];
	struct elfcore core;
	int fd = fixture_memfd(buf, size);

	(void)state;
	assert_int_equal(elfcore_open(&core, fd), 0);
	assert_int_equal(core.nloads, 2);
	for (uint64_t pa = 0x1000; pa < 0x3000; pa += 4096) {
		memset(page, 0xaa, sizeof(page));
		assert_int_equal(elfcore_read_page(&core, pa, page, sizeof(page)), 0);
		for (int i = 0; i < 4096; i++)
			assert_int_equal(page[i], fixture_byte(pa + (uint64_t)i));
	}
	/* Half covered, at a range's end: the rest reads as zeros. */
	assert_int_equal(elfcore_read_page(&core, 0x2800, page, sizeof(page)), 0);
	assert_int_equal(page[0], fixture_byte(0x2800));
	assert_int_equal(page[0x800], 0);
	assert_int_equal(elfcore_read_page(&core, 0x3000, page, sizeof(page)), -ENOENT);
	close(fd);
	elfcore_close(&core);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vmcoreinfo_values),
		cmocka_unit_test(vmcoreinfo_needs_pagesize),
		cmocka_unit_test(core_headers_and_notes),
		cmocka_unit_test(core_reads),
		cmocka_unit_test(core_two_windows),
		cmocka_unit_test(core_pfn_mark),
		cmocka_unit_test(core_truncated),
		cmocka_unit_test(core_refused),
		cmocka_unit_test(core_corrupt_loads_skipped),
		cmocka_unit_test(core_sparse_loads_skipped),
		cmocka_unit_test(core_overlapping_loads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
