/* Unit tests: running a build-host tool (gen/host/hostrun.c): its input,
 * its output kept whatever its exit, its standard error kept or dropped,
 * the bound on what is kept, and a tool that is not there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen/host/hostrun.h"

static void input_output_and_status(void **state)
{
	const char *const argv[] = { "sh", "-c", "read x; echo got $x; echo oops >&2; exit 3", NULL };
	const struct hostrun_io io = { .in = "pin\n", .in_len = 4, .max = 64 };
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(hostrun_run(argv, &io, &out, &len), 3);
	assert_string_equal(out, "got pin\n");
	assert_int_equal(len, 8);
	free(out);
}

/* A tool's message is kept beside its output, in the order it wrote them. */
static void stderr_kept_with_output(void **state)
{
	const char *const argv[] = { "sh", "-c", "echo one; echo two >&2; echo three", NULL };
	const struct hostrun_io io = { .max = 64, .with_stderr = true };
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(hostrun_run(argv, &io, &out, &len), 0);
	assert_string_equal(out, "one\ntwo\nthree\n");
	free(out);
}

/* The short form: output only on success, standard input /dev/null. */
static void capture_success_only(void **state)
{
	const char *const ok[] = { "sh", "-c", "cat; echo done", NULL };
	const char *const fails[] = { "sh", "-c", "echo partial; exit 1", NULL };
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(hostrun_capture(ok, NULL, 0, &out, &len, 64), 0);
	assert_string_equal(out, "done\n");
	free(out);
	out = NULL;
	assert_int_equal(hostrun_capture(fails, NULL, 0, &out, &len, 64), -EIO);
	assert_null(out);
}

static void bound_and_missing_tool(void **state)
{
	const char *const big[] = { "sh", "-c", "echo 0123456789", NULL };
	const char *const missing[] = { "/nonexistent/lifeboat-tool", NULL };
	const char *const killed[] = { "sh", "-c", "kill -9 $$", NULL };
	const struct hostrun_io io = { .max = 10 };
	char *out = NULL;
	size_t len;

	(void)state;
	assert_int_equal(hostrun_run(big, &io, &out, &len), -EFBIG);
	assert_int_equal(hostrun_run(missing, &io, &out, &len), -ENOENT);
	assert_int_equal(hostrun_capture(missing, NULL, 0, &out, &len, 10), -ENOENT);
	assert_int_equal(hostrun_run(killed, &io, &out, &len), -EINTR);
	assert_null(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(input_output_and_status),
		cmocka_unit_test(stderr_kept_with_output),
		cmocka_unit_test(capture_success_only),
		cmocka_unit_test(bound_and_missing_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
