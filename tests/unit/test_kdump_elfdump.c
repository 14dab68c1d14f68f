/* test_kdump_elfdump: the filtered ELF writer on synthetic cores: its
 * headers (read here with <elf.h>, not through the project's reader), the
 * segments a dump level leaves, file offsets, holes for zero pages, that
 * every kept byte equals the core's, the segment bound, read errors. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "kdump/elfdump.h"
#include "kdump/pagefilter.h"
#include "tests/unit/kdump_synth.h"

static const char info_text[] = "OSRELEASE=6.1.0-test\nPAGESIZE=4096\n";

/* The first ends inside a page; the last has memory past its file bytes. */
static const struct fixture_load loads[] = {
	{ 0x1000, 0x9ec00, 0x9ec00 },
	{ 0x100000, 0x40000, 0x40000 },
	{ 0x400000, 0x3000, 0x5000 },
};

struct written {
	int in, out;
	struct elfcore core;            /* the input */
	struct vmcoreinfo vi;
	struct elfdump_stats stats;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[16];
	struct stat st;
};

static void output_read(struct written *w)
{
	assert_int_equal(fstat(w->out, &w->st), 0);
	assert_true((uint64_t)w->st.st_size == w->stats.bytes);
	assert_int_equal(pread(w->out, &w->eh, sizeof(w->eh), 0), (ssize_t)sizeof(w->eh));
	assert_memory_equal(w->eh.e_ident, ELFMAG, SELFMAG);
	assert_int_equal(w->eh.e_type, ET_CORE);
	assert_int_equal(w->eh.e_machine, EM_X86_64);
	assert_int_equal(w->eh.e_phentsize, sizeof(Elf64_Phdr));
	assert_true(w->eh.e_phnum >= 1 && w->eh.e_phnum <= 16);
	assert_true(w->eh.e_phnum == w->stats.segments + 1);
	assert_int_equal(pread(w->out, w->ph, w->eh.e_phnum * sizeof(Elf64_Phdr), (off_t)w->eh.e_phoff),
			 (ssize_t)(w->eh.e_phnum * sizeof(Elf64_Phdr)));
}

static void write_core(struct written *w, const uint8_t *buf, size_t size, const struct elfdump_opts *opts)
{
	w->in = fixture_memfd(buf, size);
	w->out = memfd_create("elf", 0);
	assert_int_equal(elfcore_open(&w->core, w->in), 0);
	assert_int_equal(vmcoreinfo_parse(w->core.vmcoreinfo, w->core.vmcoreinfo_size, &w->vi), 0);
	assert_int_equal(elfdump_write(&w->core, &w->vi, w->out, opts, &w->stats), 0);
	output_read(w);
}

static void written_free(struct written *w)
{
	close(w->in);
	close(w->out);
	elfcore_close(&w->core);
}

/* The note is the core's notes; each load lies in the file after the
 * headers, no two overlap, each keeps its address's place in a page. */
static void check_layout(const struct written *w)
{
	uint64_t prev_end = 0;
	char notes[8192];

	assert_int_equal(w->ph[0].p_type, PT_NOTE);
	assert_true(w->ph[0].p_filesz == w->core.notes_size);
	assert_int_equal(pread(w->out, notes, w->ph[0].p_filesz, (off_t)w->ph[0].p_offset),
			 (ssize_t)w->ph[0].p_filesz);
	assert_memory_equal(notes, w->core.notes, w->core.notes_size);
	prev_end = w->ph[0].p_offset + w->ph[0].p_filesz;
	for (int i = 1; i < w->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &w->ph[i];

		assert_int_equal(p->p_type, PT_LOAD);
		assert_true(p->p_filesz == p->p_memsz && p->p_filesz > 0);
		assert_true(p->p_offset >= prev_end);
		assert_true(p->p_offset % 4096 == p->p_paddr % 4096);
		assert_true(p->p_vaddr == 0xffff888000000000ULL + p->p_paddr);
		assert_true(p->p_offset + p->p_filesz <= (uint64_t)w->st.st_size);
		prev_end = p->p_offset + p->p_filesz;
	}
}

/* Every byte of segment i equals physical memory in the input core. */
static void check_bytes(const struct written *w, int i)
{
	const Elf64_Phdr *p = &w->ph[i];
	uint8_t *got = malloc(p->p_filesz), *want = malloc(p->p_filesz);

	assert_int_equal(pread(w->out, got, p->p_filesz, (off_t)p->p_offset), (ssize_t)p->p_filesz);
	for (uint64_t at = 0; at < p->p_filesz; at += 4096) {
		size_t n = p->p_filesz - at < 4096 ? (size_t)(p->p_filesz - at) : 4096;

		assert_int_equal(elfcore_read_phys(&w->core, p->p_paddr + at, want + at, n), 0);
	}
	assert_memory_equal(got, want, p->p_filesz);
	free(got);
	free(want);
}

/* Level 0: the same ranges, every byte, zero pages written too. */
static void level0_full_copy(void **state)
{
	struct elfdump_opts opts = { .dump_level = 0 };
	struct written w;
	size_t size;
	uint8_t *core = fixture_core(loads, 3, info_text, 2, &size);

	(void)state;
	write_core(&w, core, size, &opts);
	free(core);
	assert_int_equal(w.eh.e_phnum, 4);
	check_layout(&w);
	for (int i = 1; i < 4; i++) {
		assert_true(w.ph[i].p_paddr == loads[i - 1].paddr);
		assert_true(w.ph[i].p_memsz == loads[i - 1].memsz);
		check_bytes(&w, i);
	}
	assert_true(w.stats.pages_zero == 0 && w.stats.pages_filtered == 0);
	assert_int_equal(w.stats.filtered_by_kind, 0);
	written_free(&w);
}

/* Level 1: the same ranges, with the zero pages as holes of the file. */
static void zero_pages_are_holes(void **state)
{
	struct elfdump_opts opts = { .dump_level = 1 };
	struct written w;
	size_t size;
	uint8_t *core = fixture_core(loads, 3, info_text, 2, &size);
	uint64_t zero_at;

	(void)state;
	write_core(&w, core, size, &opts);
	free(core);
	assert_int_equal(w.eh.e_phnum, 4);
	check_layout(&w);
	for (int i = 1; i < 4; i++)
		check_bytes(&w, i);
	assert_true(w.stats.pages_zero > 0);
	/* pfn 0x103 is all zeros (every fourth page is, in the fixture). */
	zero_at = w.ph[2].p_offset + 0x3000;
	assert_true(lseek(w.out, (off_t)zero_at, SEEK_HOLE) == (off_t)zero_at);
	assert_true(lseek(w.out, (off_t)zero_at, SEEK_DATA) == (off_t)(zero_at + 4096));
	written_free(&w);
}

static void synth_write(struct written *w, const struct elfdump_opts *opts, struct synth *s)
{
	synth_build(s);
	write_core(w, s->buf, s->size, opts);
	free(s->buf);
	assert_int_equal(w->stats.filtered_by_kind, 1);
}

static void check_segment(const struct written *w, int i, uint64_t first_pfn, uint64_t pages)
{
	assert_true(w->ph[i].p_paddr == first_pfn * 4096);
	assert_true(w->ph[i].p_filesz == pages * 4096);
}

/* Level 31 on the synthetic kernel: pages 20-22, 24-27 and 31-33 are left
 * out, so the one range becomes four segments of exactly the kept pages. */
static void level31_segments(void **state)
{
	struct elfdump_opts opts = { .dump_level = 31 };
	struct written w;
	struct synth s;
	uint64_t bound;

	(void)state;
	synth_write(&w, &opts, &s);
	assert_int_equal(w.eh.e_phnum, 5);
	check_layout(&w);
	check_segment(&w, 1, 0, 20);
	check_segment(&w, 2, PFN_CACHE_PRIV + 1, 1);
	check_segment(&w, 3, PFN_BUDDY + 4, 3);
	check_segment(&w, 4, PFN_SWAPCACHE + 1, PAGES - PFN_SWAPCACHE - 1);
	for (int i = 1; i < 5; i++)
		check_bytes(&w, i);
	assert_true(w.stats.pages_filtered == 10);
	assert_true(w.stats.min_gap == 1);
	assert_int_equal(elfdump_bound(&w.core, &w.vi, 31, &bound), 0);
	assert_true(bound >= w.stats.bytes);
	written_free(&w);
}

/* With min_gap 4 only the run of four free pages splits; the shorter runs
 * stay inside their segments and read as zeros. */
static void short_runs_read_as_zeros(void **state)
{
	struct elfdump_opts opts = { .dump_level = 31, .min_gap = 4 };
	struct written w;
	struct synth s;
	uint8_t page[4096], zeros[4096] = { 0 };

	(void)state;
	synth_write(&w, &opts, &s);
	assert_int_equal(w.eh.e_phnum, 3);
	check_layout(&w);
	check_segment(&w, 1, 0, PFN_BUDDY);
	check_segment(&w, 2, PFN_BUDDY + 4, PAGES - PFN_BUDDY - 4);
	for (uint64_t pfn = PFN_ANON; pfn <= PFN_CACHE_PRIV; pfn++) {
		assert_int_equal(pread(w.out, page, 4096, (off_t)(w.ph[1].p_offset + pfn * 4096)), 4096);
		assert_memory_equal(page, zeros, 4096);
	}
	assert_int_equal(pread(w.out, page, 4096, (off_t)(w.ph[1].p_offset + 23 * 4096)), 4096);
	assert_int_equal(elfcore_read_phys(&w.core, 23 * 4096, zeros, 4096), 0);
	assert_memory_equal(page, zeros, 4096);
	written_free(&w);
}

/* Above the segment bound, min_gap doubles until the count fits: runs of
 * 3, 4 and 3 pages give 4 segments at gap 1 or 2, 2 at gap 4, 1 at 8. */
static void segment_bound(void **state)
{
	struct elfdump_opts opts = { .dump_level = 31, .max_segments = 3 };
	struct written w;
	struct synth s;

	(void)state;
	synth_write(&w, &opts, &s);
	assert_true(w.stats.min_gap == 4);
	assert_int_equal(w.eh.e_phnum, 3);
	check_layout(&w);
	check_segment(&w, 2, PFN_BUDDY + 4, PAGES - PFN_BUDDY - 4);
	written_free(&w);
	opts.max_segments = 1;
	synth_write(&w, &opts, &s);
	assert_true(w.stats.min_gap == 8);
	assert_int_equal(w.eh.e_phnum, 2);
	check_segment(&w, 1, 0, PAGES);
	written_free(&w);
}

/* A core whose data ends early: the range whose bytes are missing is left
 * out when the core is opened, the others are written; a core that
 * shrinks after that gives the read error back (/proc/vmcore does not
 * shrink, but a read of it can fail). */
static void short_core(void **state)
{
	struct elfdump_opts opts = { .dump_level = 0 };
	struct elfdump_stats st;
	struct elfcore core;
	size_t size;
	uint8_t *buf = fixture_core(loads, 3, info_text, 1, &size);
	int in = fixture_memfd(buf, size - 0x2000), out = memfd_create("elf", 0);

	(void)state;
	free(buf);
	assert_int_equal(elfcore_open(&core, in), 0);
	assert_int_equal(core.nloads, 2);
	assert_int_equal(core.loads_skipped, 1);
	assert_int_equal(elfdump_write(&core, NULL, out, &opts, &st), 0);
	/* Read with pread (a mapping of a shrunk file would fault instead). */
	core.win->failed = 1;
	assert_int_equal(ftruncate(in, 0x1000), 0);
	assert_int_equal(elfdump_write(&core, NULL, out, &opts, &st), -EIO);
	elfcore_close(&core);
	close(in);
	close(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(level0_full_copy),
		cmocka_unit_test(zero_pages_are_holes),
		cmocka_unit_test(level31_segments),
		cmocka_unit_test(short_runs_read_as_zeros),
		cmocka_unit_test(segment_bound),
		cmocka_unit_test(short_core),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
