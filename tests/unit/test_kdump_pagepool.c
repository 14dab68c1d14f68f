/* test_kdump_pagepool: the dump's compressing threads give the pages back
 * in the order the writer read them, each decompressing to what was put
 * in; zero pages are marked, pages that do not shrink come back as they
 * are, and an error of the writer stops the pool at once. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>
#include <lzo/lzo1x.h>

#include "kdump/pagepool.h"

#define PAGE 4096
#define PAGES 1000

/* Page i: its number, then a pattern of it; every 7th all zeros, every
 * 11th noise that does not compress. */
static void page_fill(uint8_t *p, unsigned i)
{
	if (i % 7 == 0) {
		memset(p, 0, PAGE);
		return;
	}
	if (i % 11 == 0) {
		uint32_t x = i * 2654435761u + 1;

		for (size_t k = 0; k < PAGE; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			p[k] = (uint8_t)x;
		}
	}
	else
		for (size_t k = 0; k < PAGE; k++)
			p[k] = (uint8_t)(i + k / 64);
	memcpy(p, &i, sizeof(i));
}

struct seen {
	unsigned next, fail_at;
	unsigned zero, raw, packed;
};

static int check_page(void *ctx, const struct pool_page *pg)
{
	struct seen *s = ctx;
	uint8_t want[PAGE], got[PAGE];

	if (s->next == s->fail_at)
		return -EIO;
	page_fill(want, s->next);
	if (pg->zero) {
		s->zero++;
		assert_true(s->next % 7 == 0);
		memcpy(got, pg->data, PAGE);
	} else if (pg->flags == DUMP_DH_COMPRESSED_ZLIB) {
		uLongf len = PAGE;

		s->packed++;
		assert_true(pg->size < PAGE);
		assert_int_equal(uncompress(got, &len, pg->data, pg->size), Z_OK);
		assert_int_equal(len, PAGE);
	} else if (pg->flags == DUMP_DH_COMPRESSED_LZO) {
		lzo_uint len = PAGE;

		s->packed++;
		assert_true(pg->size < PAGE);
		assert_int_equal(lzo1x_decompress_safe(pg->data, pg->size, got, &len, NULL), LZO_E_OK);
		assert_int_equal(len, PAGE);
	} else {
		s->raw++;
		assert_int_equal(pg->flags, 0);
		assert_int_equal(pg->size, PAGE);
		memcpy(got, pg->data, PAGE);
	}
	assert_memory_equal(got, want, PAGE);
	s->next++;
	return 0;
}

static int run_pool(enum kdump_compress comp, unsigned threads, struct seen *s, unsigned pages)
{
	struct pagepool pool;
	struct pagepool_opts o = { .comp = pagecomp_get(comp), .page_size = PAGE, .threads = threads,
				   .find_zero = true, .emit = check_page, .emit_ctx = s };
	char why[200];
	int r = pagepool_open(&pool, &o, why, sizeof(why));

	assert_int_equal(r, 0);
	assert_int_equal(pool.nthreads, threads);
	for (unsigned i = 0; r == 0 && i < pages; i++) {
		uint8_t *buf;

		r = pagepool_page(&pool, &buf);
		if (r == 0)
			page_fill(buf, i);
	}
	if (r == 0)
		r = pagepool_finish(&pool);
	pagepool_close(&pool);
	return r;
}

static void order_kept(void **state)
{
	const unsigned threads[] = { 0, 1, 2, 5 };

	(void)state;
	for (int c = 0; c < 2; c++)
		for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
			struct seen s = { .fail_at = UINT32_MAX };

			assert_int_equal(run_pool(c ? COMPRESS_LZO : COMPRESS_ZLIB, threads[t], &s, PAGES), 0);
			assert_int_equal(s.next, PAGES);
			assert_int_equal(s.zero, (PAGES + 6) / 7);
			/* The noise pages that are not also zero pages. */
			assert_int_equal(s.raw, (PAGES + 10) / 11 - (PAGES + 76) / 77);
			assert_int_equal(s.packed, PAGES - s.zero - s.raw);
		}
}

/* Fewer pages than one batch, and exactly one batch. */
static void partial_batches(void **state)
{
	const unsigned counts[] = { 0, 1, PAGEPOOL_BATCH - 1, PAGEPOOL_BATCH, PAGEPOOL_BATCH + 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct seen s = { .fail_at = UINT32_MAX };

		assert_int_equal(run_pool(COMPRESS_ZLIB, 2, &s, counts[i]), 0);
		assert_int_equal(s.next, counts[i]);
	}
}

/* The writer's error (a full disk) comes back from the next call and no
 * page after it is given; closing does not wait for the rest. */
static void emit_error_stops(void **state)
{
	const unsigned threads[] = { 0, 3 };

	(void)state;
	for (size_t t = 0; t < 2; t++) {
		struct seen s = { .fail_at = 200 };

		assert_int_equal(run_pool(COMPRESS_LZO, threads[t], &s, PAGES), -EIO);
		assert_int_equal(s.next, 200);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order_kept),
		cmocka_unit_test(partial_batches),
		cmocka_unit_test(emit_error_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
