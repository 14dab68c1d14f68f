/* test_kdump_diskdump: the kdump-compressed writer on synthetic cores, read
 * back by a reader written here from the format's description; the
 * flattened stream reassembled here and by `makedumpfile -R` must give the
 * same bytes; the page-kind rules of the dump levels. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cmocka.h>
#include <lzo/lzo1x.h>
#include <zstd.h>

#include "kdump/diskdump.h"
#include "kdump/pagecomp.h"
#include "kdump/pagefilter.h"
#include "tests/unit/kdump_fixture.h"

static const char info_text[] = "OSRELEASE=6.1.0-test\nPAGESIZE=4096\n";

static const struct fixture_load loads[] = {
	{ 0x1000, 0x9f000, 0x9f000 },
	{ 0x100000, 0x40000, 0x40000 },
	{ 0x400000, 0x3000, 0x5000 },
};

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
static int bit(const uint8_t *b, uint64_t i) { return (b[i / 8] >> (i % 8)) & 1; }

struct dumped {
	uint8_t *buf;
	size_t size;
	struct elfcore core;
	struct diskdump_stats stats;
};

static void dump_make_with(struct dumped *d, unsigned level, bool flat, enum kdump_compress comp,
			   unsigned threads)
{
	size_t size;
	uint8_t *core = fixture_core(loads, 3, info_text, 2, &size);
	int in = fixture_memfd(core, size), out = memfd_create("dump", 0);
	struct diskdump_opts opts = { .dump_level = level, .nodename = "testhost",
				      .compress = comp, .threads = threads };
	struct vmcoreinfo vi;
	struct dump_sink sink;
	struct stat st;

	free(core);
	assert_int_equal(elfcore_open(&d->core, in), 0);
	assert_int_equal(vmcoreinfo_parse(d->core.vmcoreinfo, d->core.vmcoreinfo_size, &vi), 0);
	dump_sink_init(&sink, out, flat);
	assert_int_equal(dump_sink_begin(&sink), 0);
	assert_int_equal(diskdump_write(&d->core, &vi, &sink, &opts, &d->stats), 0);
	assert_int_equal(dump_sink_end(&sink), 0);
	assert_int_equal(fstat(out, &st), 0);
	/* A file ends with the last page; a stream is every byte sent. */
	assert_true((uint64_t)st.st_size == (flat ? sink.bytes : d->stats.bytes));
	d->size = (size_t)st.st_size;
	d->buf = malloc(d->size);
	assert_int_equal(pread(out, d->buf, d->size, 0), (ssize_t)d->size);
	close(out);
}

static void dump_make(struct dumped *d, unsigned level, bool flat)
{
	dump_make_with(d, level, flat, COMPRESS_ZLIB, 0);
}

static void dump_free(struct dumped *d)
{
	close(d->core.fd);
	elfcore_close(&d->core);
	free(d->buf);
}

/* Read every page back through the bitmaps and descriptors; each must
 * equal the core's. Returns the number of pages checked. */
static uint64_t dump_verify(const uint8_t *f, size_t size, const struct elfcore *core)
{
	uint64_t block = le32(f + 428), sub = le32(f + 432), bmb = le32(f + 436);
	uint64_t max_mapnr = le64(f + block + 96), half = bmb / 2 * block, desc = 0;
	const uint8_t *b1 = f + (1 + sub) * block, *b2 = b1 + half, *descs = b2 + half;
	uint8_t want[4096], got[4096];

	assert_memory_equal(f, "KDUMP   ", 8);
	assert_int_equal(le32(f + 8), 6);
	assert_string_equal((const char *)f + 12 + 65 * 2, "6.1.0-test");
	assert_string_equal((const char *)f + 12 + 65, "testhost");
	assert_true(le32(f + 424) == DUMP_DH_COMPRESSED_ZLIB || le32(f + 424) == DUMP_DH_COMPRESSED_LZO ||
		    le32(f + 424) == DUMP_DH_COMPRESSED_ZSTD);
	assert_int_equal(block, 4096);
	assert_true(max_mapnr == 0x405);
	/* The notes and VMCOREINFO the sub header points at. */
	assert_true(le64(f + block + 32) + le64(f + block + 40) <= size);
	assert_memory_equal(f + le64(f + block + 32), info_text, strlen(info_text));
	assert_true(le64(f + block + 56) == core->notes_size);
	for (uint64_t pfn = 0; pfn < max_mapnr; pfn++) {
		const uint8_t *pd;
		uLongf len = sizeof(got);

		assert_int_equal(bit(b1, pfn), elfcore_pfn_valid(core, pfn, 4096));
		if (!bit(b2, pfn))
			continue;
		assert_true(bit(b1, pfn));
		pd = descs + desc++ * DISKDUMP_DESC_SIZE;
		assert_true(le64(pd) + le32(pd + 8) <= size);
		if (le32(pd + 12) & DUMP_DH_COMPRESSED_ZLIB) {
			assert_int_equal(uncompress(got, &len, f + le64(pd), le32(pd + 8)), Z_OK);
			assert_int_equal(len, 4096);
		} else if (le32(pd + 12) & DUMP_DH_COMPRESSED_LZO) {
			lzo_uint lzo_len = sizeof(got);

			/* A page's flag is the one the header names. */
			assert_int_equal(le32(f + 424), DUMP_DH_COMPRESSED_LZO);
			assert_int_equal(lzo1x_decompress_safe(f + le64(pd), le32(pd + 8), got, &lzo_len, NULL),
					 LZO_E_OK);
			assert_int_equal(lzo_len, 4096);
		} else if (le32(pd + 12) & DUMP_DH_COMPRESSED_ZSTD) {
			/* One frame per page, as makedumpfile -z and crash read it. */
			assert_int_equal(le32(f + 424), DUMP_DH_COMPRESSED_ZSTD);
			assert_int_equal(ZSTD_decompress(got, sizeof(got), f + le64(pd), le32(pd + 8)), 4096);
		} else {
			assert_int_equal(le32(pd + 8), 4096);
			memcpy(got, f + le64(pd), 4096);
		}
		assert_int_equal(elfcore_read_page(core, pfn * 4096, want, 4096), 0);
		assert_memory_equal(got, want, 4096);
	}
	return desc;
}

static void writes_every_page(void **state)
{
	struct dumped d;
	uint64_t present = 0x9f + 0x40 + 5;

	(void)state;
	dump_make(&d, 0, false);
	assert_true(dump_verify(d.buf, d.size, &d.core) == present);
	assert_true(d.stats.pages_total == present);
	assert_true(d.stats.pages_written == present);
	assert_int_equal(d.stats.filtered_by_kind, 0);
	dump_free(&d);
}

/* Pages compressed by which, read back through the library's own
 * decompressor; the header and the descriptors say flag. */
static void pages_read_back(enum kdump_compress which, uint32_t flag)
{
	struct dumped d;
	uint64_t present = 0x9f + 0x40 + 5;

	dump_make_with(&d, 0, false, which, 0);
	assert_int_equal(le32(d.buf + 424), flag);
	assert_int_equal(d.stats.compress_flag, flag);
	assert_string_equal(d.stats.fallback_why, "");
	assert_true(dump_verify(d.buf, d.size, &d.core) == present);
	/* The fixture's pages are patterns: most must have been compressed. */
	assert_true(d.stats.pages_compressed > present / 2);
	dump_free(&d);
}

/* LZO pages (makedumpfile -l's), through liblzo2. */
static void lzo_pages_read_back(void **state)
{
	(void)state;
	pages_read_back(COMPRESS_LZO, DUMP_DH_COMPRESSED_LZO);
}

/* A page of text, words drawn from a few hundred by a fixed sequence: the
 * kind of page (page cache) where LZO dictionaries of other sizes find
 * other matches. */
static void text_page(uint8_t *page, uint32_t seed)
{
	size_t at = 0;

	while (at < 4096) {
		seed = seed * 1103515245 + 12345;
		at += (size_t)snprintf((char *)page + at, 4096 - at, "w%u ", (seed >> 16) % 300);
		if (at >= 4095)
			break;
	}
}

/* An LZO page holds makedumpfile -l's bytes, lzo1x_1_compress's output
 * to the byte, so a dump is never larger than -l's (the 4096-entry
 * lzo1x_1_12 gives other bytes for these pages). */
static void lzo_pages_are_makedumpfiles(void **state)
{
	static uint8_t work[LZO1X_1_MEM_COMPRESS];
	uint8_t in[4096], ours[4096 + 4096 / 16 + 64 + 3], theirs[sizeof(ours)];
	char why[200];
	void *comp;

	(void)state;
	assert_int_equal(lzo_init(), LZO_E_OK);
	assert_int_equal(pagecomp_lzo.state_new(&comp, why, sizeof(why)), 0);
	assert_true(pagecomp_lzo.bound(sizeof(in)) <= sizeof(ours));
	for (uint32_t seed = 1; seed <= 16; seed++) {
		lzo_uint len = sizeof(theirs);
		size_t got;

		text_page(in, seed);
		got = pagecomp_lzo.compress(comp, in, sizeof(in), ours);
		assert_int_equal(lzo1x_1_compress(in, sizeof(in), theirs, &len, work), LZO_E_OK);
		assert_true(len < sizeof(in));
		assert_int_equal(got, len);
		assert_memory_equal(ours, theirs, len);
	}
	pagecomp_lzo.state_free(comp);
}

/* zstd pages (makedumpfile -z's), through libzstd. */
static void zstd_pages_read_back(void **state)
{
	(void)state;
	pages_read_back(COMPRESS_ZSTD, DUMP_DH_COMPRESSED_ZSTD);
}

/* Compressing threads change nothing in the file but the header's time:
 * the same bytes from the sub header on as the writer alone, for both
 * compressors, at both levels, with more threads than batches too. */
static void threads_keep_the_order(void **state)
{
	const enum kdump_compress comps[] = { COMPRESS_ZLIB, COMPRESS_LZO, COMPRESS_ZSTD };
	const unsigned levels[] = { 0, 31 }, threads[] = { 1, 2, 3, 8 };

	(void)state;
	for (size_t c = 0; c < sizeof(comps) / sizeof(comps[0]); c++)
		for (size_t l = 0; l < 2; l++) {
			struct dumped alone;

			dump_make_with(&alone, levels[l], false, comps[c], 0);
			assert_int_equal(alone.stats.threads, 0);
			for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
				struct dumped d;

				dump_make_with(&d, levels[l], false, comps[c], threads[t]);
				assert_int_equal(d.stats.threads, threads[t]);
				assert_true(d.size == alone.size);
				assert_memory_equal(d.buf + 4096, alone.buf + 4096, d.size - 4096);
				assert_true(d.stats.pages_written == alone.stats.pages_written);
				assert_true(d.stats.pages_zero == alone.stats.pages_zero);
				dump_verify(d.buf, d.size, &d.core);
				dump_free(&d);
			}
			dump_free(&alone);
		}
}

/* How many different data offsets the descriptors name. */
static uint64_t distinct_offsets(const uint8_t *f)
{
	uint64_t block = le32(f + 428), sub = le32(f + 432), bmb = le32(f + 436);
	const uint8_t *descs = f + (1 + sub + bmb) * block;
	uint64_t n = 0, max_mapnr = le64(f + block + 96), count = 0;
	const uint8_t *b2 = f + (1 + sub + bmb / 2) * block;

	for (uint64_t pfn = 0; pfn < max_mapnr; pfn++)
		count += bit(b2, pfn);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t off = le64(descs + i * DISKDUMP_DESC_SIZE);
		bool seen = false;

		for (uint64_t j = 0; j < i && !seen; j++)
			seen = le64(descs + j * DISKDUMP_DESC_SIZE) == off;
		n += !seen;
	}
	return n;
}

/* Level 1: zero pages still readable, as one shared stored page. */
static void zero_pages_shared(void **state)
{
	struct dumped full, zero;

	(void)state;
	dump_make(&full, 0, false);
	dump_make(&zero, 31, false);
	assert_true(dump_verify(zero.buf, zero.size, &zero.core) == full.stats.pages_total);
	/* Every fourth page of the fixture is zero, and the two pages past the
	 * third range's file size. */
	assert_true(zero.stats.pages_zero >= full.stats.pages_total / 4);
	assert_true(zero.stats.pages_written + zero.stats.pages_zero == full.stats.pages_total);
	assert_true(distinct_offsets(zero.buf) == zero.stats.pages_written + 1);
	assert_true(distinct_offsets(full.buf) == full.stats.pages_written);
	dump_free(&full);
	dump_free(&zero);
}

/* Apply a flattened stream's records to a buffer, as makedumpfile -R does. */
static uint8_t *flat_apply(const uint8_t *s, size_t len, size_t *out_size)
{
	uint8_t *out = NULL;
	size_t pos = FLAT_HEADER_SIZE, size = 0;

	assert_memory_equal(s, "makedumpfile", 12);
	for (;;) {
		uint64_t off = 0, n = 0;

		assert_true(pos + 16 <= len);
		for (int i = 0; i < 8; i++) {
			off = off << 8 | s[pos + (size_t)i];
			n = n << 8 | s[pos + 8 + (size_t)i];
		}
		pos += 16;
		if (off == UINT64_MAX && n == UINT64_MAX)
			break;
		assert_true(pos + n <= len);
		if (off + n > size) {
			out = realloc(out, off + n);
			memset(out + size, 0, off + n - size);
			size = off + n;
		}
		memcpy(out + off, s + pos, n);
		pos += n;
	}
	assert_true(pos == len);
	*out_size = size;
	return out;
}

static void flattened_reassembles(void **state)
{
	struct dumped flat;
	size_t size;
	uint8_t *plain;
	char dir[] = "/tmp/lbkdumpXXXXXX", cmd[512], path[300];
	FILE *f;

	(void)state;
	dump_make(&flat, 31, true);
	plain = flat_apply(flat.buf, flat.size, &size);
	dump_verify(plain, size, &flat.core);
	/* makedumpfile must turn the same stream into the same file. */
	if (system("command -v makedumpfile >/dev/null 2>&1") == 0) {
		assert_non_null(mkdtemp(dir));
		snprintf(path, sizeof(path), "%s/flat", dir);
		f = fopen(path, "w");
		assert_int_equal(fwrite(flat.buf, 1, flat.size, f), flat.size);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "makedumpfile -R %s/out < %s/flat >/dev/null 2>&1", dir, dir);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof(path), "%s/out", dir);
		f = fopen(path, "r");
		assert_non_null(f);
		uint8_t *theirs = malloc(size + 1);
		assert_int_equal(fread(theirs, 1, size + 1, f), size);
		fclose(f);
		assert_memory_equal(theirs, plain, size);
		free(theirs);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		assert_int_equal(system(cmd), 0);
	} else {
		fail_msg("makedumpfile is not installed: run tests/install-deps.sh");
	}
	free(plain);
	dump_free(&flat);
}

static const struct vmcoreinfo kinds = {
	.pg_lru = 4, .pg_private = 13, .pg_swapcache = 10, .pg_swapbacked = 19, .pg_slab = 9,
	.pg_hwpoison = 23, .buddy_mapcount = -129, .offline_mapcount = -257,
};

static void page_kinds(void **state)
{
	struct page_fields p = { .mapcount = -1 };

	(void)state;
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), 0);                 /* kernel data */
	p.flags = 1 << 4;
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_CACHE | DL_CACHE_PRIVATE);
	p.flags |= 1 << 13;
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_CACHE_PRIVATE);
	p.flags = 1 << 4;
	p.mapping = 0xffff888001234561ULL;                                  /* anonymous */
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_USER);
	p = (struct page_fields){ .mapcount = -129, .private = 3 };
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_FREE);
	p.flags = 1 << 9;                                                   /* slab reuses the field */
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), 0);
	p = (struct page_fields){ .mapcount = -1, .flags = 1 << 10 };      /* swapcache bit alone */
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), 0);
	p.flags |= 1 << 19;
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_CACHE | DL_CACHE_PRIVATE);
	p = (struct page_fields){ .mapcount = -257 };
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_ALWAYS);
	p = (struct page_fields){ .mapcount = -1, .flags = 1 << 23 };
	assert_int_equal(pagefilter_exclude_bits(&kinds, &p), DL_ALWAYS);
}

static uint8_t byte_at(int fd, uint64_t off)
{
	uint8_t b = 0xff;

	assert_int_equal(pread(fd, &b, 1, (off_t)off), 1);
	return b;
}

static uint64_t le64_at(int fd, uint64_t off)
{
	uint8_t b[8] = { 0 };

	assert_int_equal(pread(fd, b, 8, (off_t)off), 8);
	return le64(b);
}

/* The gaps between ranges cost nothing (audit N8): two ranges 2^39 apart
 * need 2 x 16 MiB of bitmaps, of which only the bytes where a range is are
 * written (elsewhere a hole of the file, zeros). Before, every frame of
 * the gap was walked and every zero byte written. */
static void gaps_cost_nothing(void **state)
{
	static const struct fixture_load apart[] = {
		{ 0x1000, 0x2000, 0x2000 },
		{ (1ULL << 39) - 0x1000, 0x1000, 0x1000 },
	};
	struct diskdump_opts opts = { .dump_level = 1, .nodename = "testhost" };
	size_t size;
	uint8_t *buf = fixture_core(apart, 2, info_text, 1, &size);
	int in = fixture_memfd(buf, size), out = memfd_create("dump", 0);
	uint64_t max_mapnr = 1ULL << 27, bitmap1, bound;
	struct diskdump_stats stats;
	struct elfcore core;
	struct vmcoreinfo vi;
	struct dump_sink sink;

	(void)state;
	free(buf);
	assert_int_equal(elfcore_open(&core, in), 0);
	assert_int_equal(core.nloads, 2);
	assert_int_equal(vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi), 0);
	assert_int_equal(diskdump_bound(&core, &vi, 1, &bound), 0);
	dump_sink_init(&sink, out, false);
	assert_int_equal(diskdump_write(&core, &vi, &sink, &opts, &stats), 0);
	assert_true(sink.bytes < (1 << 20));
	assert_true(stats.pages_total == 3);
	assert_true((le64_at(out, 432) & UINT32_MAX) == 1);        /* sub header blocks */
	assert_true(le64_at(out, 4096 + 96) == max_mapnr);
	/* Both bitmaps: frames 1 and 2, the gap clear, the last frame. */
	bitmap1 = 2 * 4096;
	for (int i = 0; i < 2; i++) {
		uint64_t at = bitmap1 + (uint64_t)i * max_mapnr / 8;

		assert_int_equal(byte_at(out, at), 0x06);
		assert_int_equal(byte_at(out, at + max_mapnr / 16), 0);
		assert_int_equal(byte_at(out, at + max_mapnr / 8 - 1), 0x80);
	}
	assert_true(bound >= 2 * max_mapnr / 8);
	close(out);
	close(in);
	elfcore_close(&core);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writes_every_page),
		cmocka_unit_test(zero_pages_shared),
		cmocka_unit_test(lzo_pages_read_back),
		cmocka_unit_test(lzo_pages_are_makedumpfiles),
		cmocka_unit_test(zstd_pages_read_back),
		cmocka_unit_test(threads_keep_the_order),
		cmocka_unit_test(flattened_reassembles),
		cmocka_unit_test(page_kinds),
		cmocka_unit_test(gaps_cost_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
