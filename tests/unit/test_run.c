/* Unit tests: running a tool (bootlib/run.c) with input on its stdin, its
 * words collected, extra environment, and the time bound that keeps a
 * tool that does not answer (a TPM) from hanging the boot. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "bootlib/run.h"

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void input_and_output(void **state)
{
	char *const argv[] = { "/bin/sh", "-c", "read x; echo got $x; exit 3", NULL };
	char out[64];

	(void)state;
	assert_int_equal(run_tool(argv, "pin\n", 4, out, sizeof(out)), 3);
	assert_string_equal(out, "got pin\n");
}

static void environment(void **state)
{
	char *const argv[] = { "/bin/sh", "-c", "echo $LIFEBOAT_T1 $LIFEBOAT_T2", NULL };
	char *const env[] = { "LIFEBOAT_T1=device:/dev/tpmrm1", "LIFEBOAT_T2=b", NULL };
	char out[64];

	(void)state;
	assert_int_equal(run_tool_bounded(argv, env, NULL, 0, out, sizeof(out), 5000), 0);
	assert_string_equal(out, "device:/dev/tpmrm1 b\n");
}

/* A tool that never ends is killed at the bound, not waited for. */
static void bounded(void **state)
{
	char *const argv[] = { "/bin/sleep", "30", NULL };
	char out[16];
	double start = seconds();

	(void)state;
	assert_int_equal(run_tool_bounded(argv, NULL, NULL, 0, out, sizeof(out), 200), -ETIMEDOUT);
	assert_true(seconds() - start < 5);
}

static void missing_tool(void **state)
{
	char *const argv[] = { "/nonexistent/tool", NULL };
	char out[16];

	(void)state;
	assert_int_equal(run_tool_bounded(argv, NULL, NULL, 0, out, sizeof(out), 2000), 127);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(input_and_output),
		cmocka_unit_test(environment),
		cmocka_unit_test(bounded),
		cmocka_unit_test(missing_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
