/* Unit tests: bootlib/patience.c, the pause between tries of a server that
 * may still be starting: it grows to its cap, never leaves the deadline
 * without a last try, and gives up when no time is left. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bootlib/clock.h"
#include "bootlib/patience.h"

static void pause_grows_to_its_cap(void **state)
{
	static const unsigned int want[] = { 0, 1000, 2000, 4000, 8000, 8000, 8000 };
	struct patience p;

	(void)state;
	patience_start(&p, "the test server", 0);
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p.tries = i;
		assert_int_equal(patience_pause_ms(&p), want[i]);
	}
}

/* 3 s left: the 8 s pause is cut so the last try comes 1 s before the end;
 * 0.5 s left: no time for a try, so none is waited for. */
static void pause_keeps_a_last_try(void **state)
{
	struct patience p;
	unsigned int ms;

	(void)state;
	patience_start(&p, "the test server", clock_now_ms() + 3000);
	p.tries = 5;
	ms = patience_pause_ms(&p);
	assert_in_range(ms, 1500, 2000);
	patience_start(&p, "the test server", clock_now_ms() + 500);
	p.tries = 1;
	assert_int_equal(patience_pause_ms(&p), 0);
	assert_false(patience_wait(&p, "refused"));
	assert_int_equal(p.tries, 2);
}

static void wait_sleeps_the_pause(void **state)
{
	struct patience p;
	uint64_t t0;

	(void)state;
	patience_start(&p, "the test server", clock_now_ms() + 10000);
	t0 = clock_now_ms();
	assert_true(patience_wait(&p, "refused"));
	assert_true(clock_now_ms() - t0 >= PATIENCE_FIRST_MS);
	assert_int_equal(p.tries, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pause_grows_to_its_cap),
		cmocka_unit_test(pause_keeps_a_last_try),
		cmocka_unit_test(wait_sleeps_the_pause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
