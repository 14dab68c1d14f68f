/* Tests for bootlib/splash (what plymouthd is given and which consoles it
 * takes) and bootlib/plyask (the prompt plymouth shows, and its answer as
 * the client hands it over). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/plyask.h"
#include "bootlib/splash.h"
#include "bootlib/vconsole_args.h"

static void test_is_card(void **state)
{
	(void)state;
	assert_true(splash_is_card("drm", "dri/card0"));
	assert_true(splash_is_card("drm", "dri/card12"));
	/* Render nodes and connectors are not drawn on. */
	assert_false(splash_is_card("drm", "dri/renderD128"));
	assert_false(splash_is_card("drm", "dri/card"));
	assert_false(splash_is_card("drm", "dri/card0x"));
	assert_false(splash_is_card("drm", NULL));
	assert_false(splash_is_card("graphics", "fb0"));
	assert_false(splash_is_card(NULL, "dri/card0"));
}

static void test_db_text(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(splash_db_text(1234567, buf, sizeof(buf)), 28);
	assert_string_equal(buf, "I:1234567\nG:seat\nQ:seat\nV:1\n");
	assert_int_equal(splash_db_text(1234567, buf, 28), -ENOSPC);
	assert_int_equal(splash_db_text(1234567, buf, 29), 28);
}

/* plymouth's word reaches the console code through the command line's one
 * pass (the console owner declares it). */
static bool ignores_serial(const char *line)
{
	struct vconsole_args a = { .splash_ignore_serial = false };
	struct cmdline_owner owner = vconsole_args_cmdline(&a);

	cmdline_parse(line, NULL, &owner, 1);
	return a.splash_ignore_serial;
}

static void test_cmdline_word(void **state)
{
	(void)state;
	assert_true(ignores_serial("ro splash plymouth.ignore-serial-consoles quiet"));
	assert_true(ignores_serial("plymouth.ignore-serial-consoles"));
	assert_false(ignores_serial("plymouth.ignore-serial-consoles=0"));
	assert_false(ignores_serial("xplymouth.ignore-serial-consoles"));
	assert_false(ignores_serial("console=ttyS0 splash"));
	assert_false(ignores_serial(""));
}

static void test_owns_console(void **state)
{
	(void)state;
	/* The virtual terminals are always plymouth's. */
	assert_true(splash_owns_console("tty0", false));
	assert_true(splash_owns_console("tty1", true));
	assert_true(splash_owns_console("tty12", true));
	/* A serial console is, unless plymouth leaves it alone. */
	assert_true(splash_owns_console("ttyS0", false));
	assert_false(splash_owns_console("ttyS0", true));
	assert_false(splash_owns_console("ttyAMA0", true));
	assert_false(splash_owns_console("hvc0", true));
	assert_false(splash_owns_console("tty", true));
}

static void prompt_is(const char *said, size_t size, const char *want)
{
	char out[PLYASK_PROMPT_MAX];

	plyask_prompt(said, out, size);
	assert_string_equal(out, want);
}

static void test_prompt(void **state)
{
	(void)state;
	prompt_is("\nlifeboat: /dev/vda is encrypted (LUKS UUID=u; opens as /dev/mapper/x).\n"
		  "Passphrase (try 1 of 3): ", PLYASK_PROMPT_MAX,
		  "/dev/vda is encrypted (LUKS UUID=u; opens as /dev/mapper/x). Passphrase (try 1 of 3):");
	prompt_is("\nlifeboat: /dev/vda (LUKS UUID=u) is bound to the TPM with a PIN.\nTPM2 PIN (try 2 "
		  "of 3): ", PLYASK_PROMPT_MAX,
		  "/dev/vda (LUKS UUID=u) is bound to the TPM with a PIN. TPM2 PIN (try 2 of 3):");
	/* Control characters never reach plymouth's label; the tag is only
	 * dropped at a line's start. */
	prompt_is("a\033[2J\tb  c\r\nsay lifeboat: x", PLYASK_PROMPT_MAX, "a [2J b c say lifeboat: x");
	prompt_is("", PLYASK_PROMPT_MAX, "");
	prompt_is("   \n\n", PLYASK_PROMPT_MAX, "");
	/* Cut to the buffer, terminated. */
	prompt_is("abc def", 5, "abc");
	prompt_is("abcdef", 4, "abc");
}

static void test_answer_len(void **state)
{
	(void)state;
	assert_int_equal(plyask_answer_len("pw\n", 3), 2);
	assert_int_equal(plyask_answer_len("pw", 2), 2);
	assert_int_equal(plyask_answer_len("", 0), 0);
	assert_int_equal(plyask_answer_len("a b\n\n", 5), 4);
}

/* A client stand-in: a child that writes text on a pipe and exits with
 * status (or, with text NULL, waits to be stopped). */
static void fake_client(struct plyask *a, const char *text, int status)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	a->pid = fork();
	assert_true(a->pid >= 0);
	if (a->pid == 0) {
		close(p[0]);
		if (!text)
			pause();
		if (write(p[1], text, strlen(text)) < 0)
			_exit(3);
		_exit(status);
	}
	close(p[1]);
	a->fd = p[0];
}

static void test_read(void **state)
{
	struct plyask a;
	char buf[64];

	(void)state;
	fake_client(&a, "open sesame\n", 0);
	assert_int_equal(plyask_read(&a, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "open sesame");
	assert_int_equal(a.fd, -1);
	assert_int_equal(a.pid, 0);
	/* A client that failed (plymouthd went away) gives no answer. */
	fake_client(&a, "", 1);
	assert_int_equal(plyask_read(&a, buf, sizeof(buf)), -ECANCELED);
	assert_string_equal(buf, "");
	/* What was written before a failure is not an answer either. */
	fake_client(&a, "half", 1);
	assert_int_equal(plyask_read(&a, buf, sizeof(buf)), -ECANCELED);
	assert_int_equal(buf[0], '\0');
	/* Longer than the buffer: cut, terminated. */
	fake_client(&a, "0123456789", 0);
	assert_int_equal(plyask_read(&a, buf, 5), 4);
	assert_string_equal(buf, "0123");
}

static void test_cancel(void **state)
{
	struct plyask a, none = { .pid = 0, .fd = -1 };

	(void)state;
	fake_client(&a, NULL, 0);
	plyask_cancel(&a);
	assert_int_equal(a.pid, 0);
	assert_int_equal(a.fd, -1);
	/* The child was reaped: no zombie is left. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	plyask_cancel(&none);
	assert_int_equal(none.fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_card),
		cmocka_unit_test(test_db_text),
		cmocka_unit_test(test_cmdline_word),
		cmocka_unit_test(test_owns_console),
		cmocka_unit_test(test_prompt),
		cmocka_unit_test(test_answer_len),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_cancel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
