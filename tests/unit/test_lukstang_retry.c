/* Tests for blockstack/lukstang_retry: the clevis bindings tried again in
 * the background while the passphrase prompt is up. A shell script stands
 * in for lifeboat-clevis: it fails until a file says the server is up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/lukstang_retry.h"
#include "bootlib/clock.h"

struct fixture {
	char dir[64];
	char script[512];
};

static int setup(void **state)
{
	static struct fixture f;

	snprintf(f.dir, sizeof(f.dir), "/tmp/lifeboat-retry-XXXXXX");
	if (!mkdtemp(f.dir))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Each try counts itself in DIR/tries; it opens once DIR/up exists. */
static void start(struct fixture *f, struct lukstang_retry *t, uint64_t deadline_ms)
{
	char *argv[] = { "/bin/sh", "-c", f->script, NULL };

	snprintf(f->script, sizeof(f->script),
		 "echo try >> %s/tries; [ -e %s/up ] || { echo 'clevis token 1: refused'; exit 64; }; "
		 "echo 'clevis-binding: token 1, tang server http://x'; echo 'clevis-used: tang'",
		 f->dir, f->dir);
	assert_int_equal(lukstang_retry_start(t, argv, deadline_ms), 0);
}

static int tries(const struct fixture *f)
{
	char path[128], line[16];
	FILE *in;
	int n = 0;

	snprintf(path, sizeof(path), "%s/tries", f->dir);
	in = fopen(path, "r");
	if (!in)
		return 0;
	while (fgets(line, sizeof(line), in))
		n++;
	fclose(in);
	return n;
}

static bool ended_within(const struct lukstang_retry *t, int ms)
{
	struct pollfd p = { t->fd, POLLIN, 0 };

	return poll(&p, 1, ms) == 1;
}

/* The server comes up after the first try: the second (2 s later) opens
 * it, and only that try's words come back. */
static void server_up_later_opens(void **state)
{
	struct fixture *f = *state;
	struct lukstang_retry t;
	char out[256], up[128];
	uint64_t t0 = clock_now_ms();

	start(f, &t, 0);
	assert_false(ended_within(&t, 1500));
	assert_int_equal(tries(f), 1);
	snprintf(up, sizeof(up), "%s/up", f->dir);
	fclose(fopen(up, "w"));
	assert_true(ended_within(&t, 4000));
	assert_int_equal(lukstang_retry_finish(&t, out, sizeof(out)), 0);
	assert_true(clock_now_ms() - t0 >= 2500);
	assert_string_equal(out, "clevis-binding: token 1, tang server http://x\nclevis-used: tang\n");
	assert_int_equal(tries(f), 2);
	assert_int_equal(t.pid, 0);
	assert_int_equal(t.fd, -1);
	unlink(up);
}

/* The deadline ends the tries (the last at least 1 s before it). */
static void deadline_ends_the_tries(void **state)
{
	struct fixture *f = *state;
	struct lukstang_retry t;
	char out[256], path[128];

	snprintf(path, sizeof(path), "%s/tries", f->dir);
	unlink(path);
	start(f, &t, clock_now_ms() + 2500);
	assert_true(ended_within(&t, 4000));
	assert_int_equal(lukstang_retry_finish(&t, out, sizeof(out)), -ETIMEDOUT);
	assert_string_equal(out, "");
	assert_true(tries(f) >= 1);
}

/* An answer typed meanwhile ends the tries at once: the try under way is
 * ended with its children, and nothing is written after. */
static void cancel_leaves_nothing_behind(void **state)
{
	struct fixture *f = *state;
	struct lukstang_retry t;
	char out[256], late[128];
	char *argv[] = { "/bin/sh", "-c", f->script, NULL };

	snprintf(late, sizeof(late), "%s/late", f->dir);
	snprintf(f->script, sizeof(f->script), "(sleep 1; touch %s) & wait; exit 64", late);
	assert_int_equal(lukstang_retry_start(&t, argv, 0), 0);
	usleep(1300 * 1000);   /* the first try is under way */
	assert_int_equal(lukstang_retry_cancel(&t, out, sizeof(out)), -ECANCELED);
	usleep(1200 * 1000);
	assert_int_equal(access(late, F_OK), -1);
	assert_int_equal(t.pid, 0);
}

/* An answer typed while a binding's try is opening the container (the
 * stand-in holds off SIGTERM as lifeboat-clevis does then): the try is
 * let finish and counts; a SIGKILL here would have left a half-made
 * device-mapper table that the typed passphrase could not open over. */
static void cancel_lets_an_opening_finish(void **state)
{
	struct fixture *f = *state;
	struct lukstang_retry t;
	char out[256], started[128];
	char *argv[] = { "/bin/sh", "-c", f->script, NULL };

	snprintf(started, sizeof(started), "%s/started", f->dir);
	snprintf(f->script, sizeof(f->script),
		 "trap '' TERM; touch %s; sleep 1; echo 'clevis-binding: token 1, tang server http://x'",
		 started);
	assert_int_equal(lukstang_retry_start(&t, argv, 0), 0);
	for (int i = 0; i < 500 && access(started, F_OK) != 0; i++)
		usleep(10 * 1000);
	assert_int_equal(access(started, F_OK), 0);
	assert_int_equal(lukstang_retry_cancel(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "clevis-binding: token 1, tang server http://x\n");
	assert_int_equal(t.pid, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(server_up_later_opens),
		cmocka_unit_test(deadline_ends_the_tries),
		cmocka_unit_test(cancel_leaves_nothing_behind),
		cmocka_unit_test(cancel_lets_an_opening_finish),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
