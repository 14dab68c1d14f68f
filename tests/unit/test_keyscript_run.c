/* Unit tests: a keyscript's run (bootlib/scriptout.c): its stdout kept,
 * what does not fit dropped, its exit status, the bound that kills it and
 * what it started, a program that cannot start. Real children, /bin/sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/scriptout.h"

static char buf[64];

/* Whether pid has ended (gone, or a zombie its new parent has not reaped). */
static bool ended(int pid)
{
	char path[64], stat[256];
	FILE *f;
	bool zombie;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	zombie = fgets(stat, sizeof(stat), f) && strstr(stat, ") Z ");
	fclose(f);
	return zombie;
}

static int run_sh(const char *script, uint64_t deadline, struct scriptout *out)
{
	char *const argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	char *const envp[] = { "CRYPTTAB_KEY=lbkey", "PATH=/usr/bin:/bin", NULL };

	*out = (struct scriptout){ .buf = buf, .size = sizeof(buf) };
	memset(buf, 0, sizeof(buf));
	return scriptout_run(argv, envp, deadline, out);
}

/* Its stdout is the key, byte for byte (no newline added or taken); its
 * environment is the one given; its exit status is kept. */
static void output_and_status(void **state)
{
	struct scriptout out;

	(void)state;
	assert_int_equal(run_sh("printf 'pw-%s' \"$CRYPTTAB_KEY\"; exit 3", 0, &out), 0);
	assert_int_equal((int)out.len, 8);
	assert_memory_equal(buf, "pw-lbkey", 8);
	assert_false(out.overflow);
	assert_true(WIFEXITED(out.status));
	assert_int_equal(WEXITSTATUS(out.status), 3);
	assert_int_equal(run_sh("exit 0", 0, &out), 0);
	assert_int_equal((int)out.len, 0);
}

/* More than the buffer: what fits is kept, the rest read (the program
 * does not block on a full pipe) and said. */
static void overflow_is_drained(void **state)
{
	struct scriptout out;

	(void)state;
	assert_int_equal(run_sh("head -c 200000 /dev/zero", 0, &out), 0);
	assert_int_equal((int)out.len, (int)sizeof(buf));
	assert_true(out.overflow);
	assert_int_equal(WEXITSTATUS(out.status), 0);
}

/* The bound ends it and what it started, though they hold its stdout. */
static void bound_kills_the_group(void **state)
{
	struct scriptout out;
	uint64_t start = clock_now_ms();
	char pidfile[] = "/tmp/lbks-XXXXXX", cmd[256];
	FILE *f;
	int child = 0, fd = mkstemp(pidfile);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "sleep 30 & echo $! > %s; wait", pidfile);
	assert_int_equal(run_sh(cmd, start + 500, &out), -ETIMEDOUT);
	assert_true(clock_now_ms() - start < 5000);
	f = fopen(pidfile, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &child), 1);
	fclose(f);
	unlink(pidfile);
	/* Killed with the script (then reaped by PID 1). */
	for (int i = 0; i < 20 && !ended(child); i++)
		usleep(100 * 1000);
	assert_true(ended(child));
	/* It closed its stdout and went on: still bounded. */
	start = clock_now_ms();
	assert_int_equal(run_sh("printf k; exec >&-; sleep 30", start + 500, &out), -ETIMEDOUT);
	assert_int_equal((int)out.len, 1);
}

/* A program that is not there: its exec's errno. */
static void cannot_start(void **state)
{
	char *const argv[] = { "/nonexistent/keyscript", "none", NULL };
	char *const envp[] = { NULL };
	struct scriptout out = { .buf = buf, .size = sizeof(buf) };

	(void)state;
	assert_int_equal(scriptout_run(argv, envp, 0, &out), -ENOENT);
	assert_int_equal((int)out.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(output_and_status),
		cmocka_unit_test(overflow_is_drained),
		cmocka_unit_test(bound_kills_the_group),
		cmocka_unit_test(cannot_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
