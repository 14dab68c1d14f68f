/* Unit tests: bootlib/console: the active consoles' names, and a prompt's
 * answer read from several terminals at once (real pseudo-terminals: the
 * test types on the master side as a person types on a console). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/console.h"

static void active_names_in_order(void **state)
{
	char names[CONSOLE_MAX][CONSOLE_NAME_MAX];

	(void)state;
	assert_int_equal(console_active_parse("tty0 ttyS0\n", names, CONSOLE_MAX), 2);
	assert_string_equal(names[0], "tty0");
	assert_string_equal(names[1], "ttyS0");
	assert_int_equal(console_active_parse("ttyS0\n", names, CONSOLE_MAX), 1);
	assert_string_equal(names[0], "ttyS0");
	assert_int_equal(console_active_parse("", names, CONSOLE_MAX), 0);
	assert_int_equal(console_active_parse(" \n", names, CONSOLE_MAX), 0);
}

/* A name must stay a name under /dev: no path, no dots, not too long. */
static void active_names_refuse_paths(void **state)
{
	char names[CONSOLE_MAX][CONSOLE_NAME_MAX];
	char longname[CONSOLE_NAME_MAX + 8];

	(void)state;
	assert_int_equal(console_active_parse("../sda ttyS0 tty/1 hvc0", names, CONSOLE_MAX), 2);
	assert_string_equal(names[0], "ttyS0");
	assert_string_equal(names[1], "hvc0");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(console_active_parse(longname, names, CONSOLE_MAX), 0);
	assert_int_equal(console_active_parse("a b c d e f", names, 3), 3);
	assert_string_equal(names[2], "c");
}

struct two_ttys {
	int master[2];
	struct console_set set;
};

static void ttys_open(struct two_ttys *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < 2; i++) {
		int slave;

		assert_int_equal(openpty(&t->master[i], &slave, NULL, NULL, NULL), 0);
		assert_int_equal(console_make_sane(slave), 0);
		t->set.fd[i] = slave;
		snprintf(t->set.path[i], sizeof(t->set.path[i]), "/dev/pts/test%d", i);
	}
	t->set.n = 2;
}

static void ttys_close(struct two_ttys *t)
{
	for (int i = 0; i < 2; i++) {
		if (t->master[i] >= 0)
			close(t->master[i]);
		if (t->set.fd[i] >= 0)
			close(t->set.fd[i]);
	}
}

static void type_on(int master, const char *text)
{
	assert_int_equal(write(master, text, strlen(text)), (ssize_t)strlen(text));
}

/* Type once the read has started: turning echo off flushes what was
 * typed before the prompt, as it should (type-ahead is not a passphrase). */
static void type_later(int master, const char *text)
{
	if (fork() == 0) {
		usleep(100000);
		type_on(master, text);
		_exit(0);
	}
}

/* What the terminal showed on the master side so far (never blocks). */
static size_t shown(int master, char *buf, size_t size)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	size_t n = 0;

	while (n + 1 < size && poll(&pfd, 1, 50) > 0) {
		ssize_t got = read(master, buf + n, size - 1 - n);

		if (got <= 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	return n;
}

/* The answer typed on the second console wins; nothing typed is echoed. */
static void first_answer_wins_without_echo(void **state)
{
	struct two_ttys t;
	char buf[64], screen[256];
	size_t which = 9;

	(void)state;
	ttys_open(&t);
	type_later(t.master[1], "s3cret\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, &which), 6);
	assert_string_equal(buf, "s3cret");
	assert_int_equal(which, 1);
	shown(t.master[1], screen, sizeof(screen));
	assert_null(strstr(screen, "s3cret"));
	assert_non_null(strchr(screen, '\n'));
	ttys_close(&t);
}

/* What was half typed on the other console does not become the next answer. */
static void half_typed_input_is_dropped(void **state)
{
	struct two_ttys t;
	char buf[64];
	size_t which = 9;

	(void)state;
	ttys_open(&t);
	if (fork() == 0) {
		usleep(100000);
		type_on(t.master[0], "half");
		usleep(100000);
		type_on(t.master[1], "pw\n");
		_exit(0);
	}
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, &which), 2);
	assert_int_equal(which, 1);
	type_on(t.master[0], "next\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), false, &which), 4);
	assert_string_equal(buf, "next");
	assert_int_equal(which, 0);
	ttys_close(&t);
}

/* A line longer than the buffer is cut, and its rest does not leak into
 * the next answer. */
static void long_line_is_cut(void **state)
{
	struct two_ttys t;
	char buf[8];

	(void)state;
	ttys_open(&t);
	type_on(t.master[0], "0123456789abcdef\nok\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), false, NULL), 7);
	assert_string_equal(buf, "0123456");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), false, NULL), 2);
	assert_string_equal(buf, "ok");
	ttys_close(&t);
}

/* A console that ends its input is dropped; the other still answers;
 * when all have ended, the answer is -EIO. */
static void consoles_that_end_are_dropped(void **state)
{
	struct two_ttys t;
	char buf[16];
	size_t which = 9;

	(void)state;
	ttys_open(&t);
	type_on(t.master[0], "\004");   /* ^D at the start of a line */
	type_on(t.master[1], "still\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), false, &which), 5);
	assert_int_equal(which, 1);
	assert_int_equal(t.set.fd[0], -1);
	close(t.master[1]);
	t.master[1] = -1;
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), false, &which), -EIO);
	ttys_close(&t);
}

/* A prompt with a deadline (a capture kernel's) gives up when nobody
 * answers, no earlier; an answer before it is taken as without one. */
static void deadline_ends_a_prompt_nobody_answers(void **state)
{
	struct two_ttys t;
	char buf[16];
	uint64_t start;

	(void)state;
	ttys_open(&t);
	start = clock_now_ms();
	t.set.deadline_ms = start + 300;
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, NULL), -ETIMEDOUT);
	assert_true(clock_now_ms() >= start + 300);
	assert_string_equal(buf, "");
	t.set.deadline_ms = clock_now_ms() + 60000;
	type_later(t.master[0], "typed\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, NULL), 5);
	assert_string_equal(buf, "typed");
	t.set.deadline_ms = clock_now_ms() - 1;
	type_on(t.master[1], "late\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), false, NULL), -ETIMEDOUT);
	ttys_close(&t);
}

/* A background job's pipe ends the wait (it may have made the answer
 * needless); an answer typed before it still comes first, and a zeroed
 * set watches no fd 0. */
static void wake_fd_ends_the_wait(void **state)
{
	struct two_ttys t;
	char buf[16];
	int pipefd[2], saved_stdin;

	(void)state;
	ttys_open(&t);
	assert_int_equal(pipe(pipefd), 0);
	t.set.wake_fd = pipefd[0];
	type_later(t.master[0], "typed\n");
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, NULL), 5);
	assert_int_equal(write(pipefd[1], "x", 1), 1);
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, NULL), -ECANCELED);
	/* fd 0 readable (the pipe put there) is still not watched. */
	saved_stdin = dup(STDIN_FILENO);
	assert_int_equal(dup2(pipefd[0], STDIN_FILENO), STDIN_FILENO);
	t.set.wake_fd = 0;
	t.set.deadline_ms = clock_now_ms() + 200;
	assert_int_equal(console_read_answer(&t.set, buf, sizeof(buf), true, NULL), -ETIMEDOUT);
	dup2(saved_stdin, STDIN_FILENO);
	close(saved_stdin);
	close(pipefd[1]);
	close(pipefd[0]);
	ttys_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(active_names_in_order),
		cmocka_unit_test(active_names_refuse_paths),
		cmocka_unit_test(first_answer_wins_without_echo),
		cmocka_unit_test(half_typed_input_is_dropped),
		cmocka_unit_test(long_line_is_cut),
		cmocka_unit_test(consoles_that_end_are_dropped),
		cmocka_unit_test(deadline_ends_a_prompt_nobody_answers),
		cmocka_unit_test(wake_fd_ends_the_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
