/* Unit tests: bootlib/evloop: prompts hold the console and nest; the
 * observer hears once, when the last one gives it back; a waited-for
 * child holds it too. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <unistd.h>

#include "bootlib/evloop.h"

static int frees;
static bool busy_when_freed;

static void count_free(void)
{
	frees++;
	busy_when_freed = evloop_prompt_busy();
}

static const struct evloop_observer counter = { .console_free = count_free };

static void nested_prompts_free_once(void **state)
{
	(void)state;
	frees = 0;
	evloop_observe(&counter);
	assert_false(evloop_prompt_busy());
	evloop_prompt_begin();
	evloop_prompt_begin();
	assert_true(evloop_prompt_busy());
	evloop_prompt_end();
	assert_int_equal(frees, 0);
	assert_true(evloop_prompt_busy());
	evloop_prompt_end();
	assert_int_equal(frees, 1);
	assert_false(busy_when_freed);
	/* An end without a begin changes nothing. */
	evloop_prompt_end();
	assert_int_equal(frees, 1);
	evloop_observe(NULL);
}

static void child_holds_the_console(void **state)
{
	pid_t pid = fork();

	(void)state;
	if (pid == 0) {
		usleep(100000);
		_exit(3);
	}
	frees = 0;
	evloop_observe(&counter);
	assert_int_equal(evloop_wait_child(pid), 0);
	assert_int_equal(frees, 1);
	assert_false(evloop_prompt_busy());
	evloop_observe(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nested_prompts_free_once),
		cmocka_unit_test(child_holds_the_console),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
