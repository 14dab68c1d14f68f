/* test_kdump_threadsize: the capture's compressing threads come from its
 * CPUs and its free memory, whichever allows fewer, and never exceed what
 * a quarter of the free memory holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kdump/pagepool.h"
#include "kdump/threadsize.h"

#define MIB (1ull << 20)

static void one_cpu_no_thread(void **state)
{
	(void)state;
	assert_int_equal(threadsize_pick(64 * 1024 * MIB, 1, MIB), 0);
	assert_int_equal(threadsize_pick(64 * 1024 * MIB, 0, MIB), 0);
}

static void cpus_limit(void **state)
{
	(void)state;
	/* Plenty of memory: one thread per CPU beyond the writer's. */
	assert_int_equal(threadsize_pick(1024 * MIB, 2, 2 * MIB), 1);
	assert_int_equal(threadsize_pick(1024 * MIB, 8, 2 * MIB), 7);
	/* And no more than the pool has room for. */
	assert_int_equal(threadsize_pick(UINT64_MAX, 64, 2 * MIB), PAGEPOOL_THREADS_MAX);
}

static void memory_limits(void **state)
{
	(void)state;
	/* 40 MiB free, 2 MiB a thread: a quarter holds 5 of 31. */
	assert_int_equal(threadsize_pick(40 * MIB, 32, 2 * MIB), 5);
	/* Just under one thread's worth in the quarter: none. */
	assert_int_equal(threadsize_pick(2 * MIB * THREADSIZE_MEM_SHARE - 1, 32, 2 * MIB), 0);
	assert_int_equal(threadsize_pick(2 * MIB * THREADSIZE_MEM_SHARE, 32, 2 * MIB), 1);
	/* Nothing known to be free: the writer alone. */
	assert_int_equal(threadsize_pick(0, 32, 2 * MIB), 0);
	/* A zero size is taken as a byte, not a division by zero. */
	assert_int_equal(threadsize_pick(100, 4, 0), 3);
}

/* Whatever the inputs, the threads fit in their share of the memory. */
static void never_over_budget(void **state)
{
	static const uint64_t mems[] = { 0, 1, 3 * MIB, 48 * MIB, 96 * MIB, 200 * MIB, 4096 * MIB };
	static const uint64_t sizes[] = { 1, 4096, 1536 * 1024, 7 * MIB, 300 * MIB };

	(void)state;
	for (size_t m = 0; m < sizeof(mems) / sizeof(mems[0]); m++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (unsigned cpus = 0; cpus <= 40; cpus++) {
				unsigned n = threadsize_pick(mems[m], cpus, sizes[s]);

				assert_true(n * sizes[s] <= mems[m] / THREADSIZE_MEM_SHARE);
				assert_true(n < (cpus ? cpus : 1));
				assert_true(n <= PAGEPOOL_THREADS_MAX);
			}
}

/* Two batches of 64 pages in and out, the state and the stack: about
 * 1.3 MiB for 4 KiB pages with either compressor. */
static void per_thread_size(void **state)
{
	uint64_t lzo = threadsize_per_thread(&pagecomp_lzo, 4096);
	uint64_t zlib = threadsize_per_thread(pagecomp_get(COMPRESS_ZLIB), 4096);

	(void)state;
	assert_true(lzo >= 2 * PAGEPOOL_BATCH * 2 * 4096 + PAGEPOOL_WORKER_STACK);
	assert_true(lzo < 2 * MIB);
	assert_true(zlib >= 2 * PAGEPOOL_BATCH * 2 * 4096 + PAGEPOOL_WORKER_STACK);
	assert_true(zlib < 2 * MIB);
}

static void meminfo_parse(void **state)
{
	(void)state;
	assert_int_equal(threadsize_mem_available("MemTotal:         180000 kB\n"
						  "MemFree:          120000 kB\n"
						  "MemAvailable:     100000 kB\n"
						  "Buffers:               0 kB\n"),
			 100000ull * 1024);
	assert_int_equal(threadsize_mem_available("MemAvailable: 7 kB"), 7 * 1024);
	/* A kernel without the line, a torn or odd one: nothing free. */
	assert_int_equal(threadsize_mem_available("MemTotal: 100 kB\nMemFree: 50 kB\n"), 0);
	assert_int_equal(threadsize_mem_available("MemAvailable:"), 0);
	assert_int_equal(threadsize_mem_available("MemAvailable: -5 kB\n"), 0);
	assert_int_equal(threadsize_mem_available("MemAvailable: 12 MB\n"), 0);
	assert_int_equal(threadsize_mem_available("MemAvailable: 99999999999999999999 kB\n"), 0);
	assert_int_equal(threadsize_mem_available("XMemAvailable: 5 kB\n"), 0);
	assert_int_equal(threadsize_mem_available(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_cpu_no_thread),
		cmocka_unit_test(cpus_limit),
		cmocka_unit_test(memory_limits),
		cmocka_unit_test(never_over_budget),
		cmocka_unit_test(per_thread_size),
		cmocka_unit_test(meminfo_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
