/* Unit tests: the one gate to a shell (bootlib/shell.c): which causes
 * rd.shell=0 refuses, when the root password is asked, and that an
 * unusable password file keeps the shell closed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>

#include "init/bootargs.h"
#include "bootlib/shell.h"

static void args_with(struct boot_args *a, const char *cmdline)
{
	bootargs_init(a);
	assert_int_equal(bootargs_parse(cmdline, NULL, a), 0);
}

/* rd.shell=0 closes the failure shells and kdump's action=shell, not the
 * shell rd.break asks for by name. */
static void rd_shell_0_refuses_all_but_rd_break(void **state)
{
	struct boot_args a;

	(void)state;
	args_with(&a, "rd.shell=0");
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_FAILURE, -ENOENT), SHELL_REFUSED_CMDLINE);
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_ACTION, -ENOENT), SHELL_REFUSED_CMDLINE);
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_FAILURE, 0), SHELL_REFUSED_CMDLINE);
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_BREAK, -ENOENT), SHELL_OPEN);
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_BREAK, 0), SHELL_ASK_PASSWORD);
	bootargs_free(&a);
}

/* With a password in the image every cause asks for it, kdump's too (the
 * path that used to skip it). */
static void password_asked_for_every_cause(void **state)
{
	static const enum shell_cause causes[] = { SHELL_FOR_FAILURE, SHELL_FOR_ACTION, SHELL_FOR_BREAK };
	struct boot_args a;

	(void)state;
	args_with(&a, "root=/dev/vda");
	for (size_t i = 0; i < sizeof(causes) / sizeof(causes[0]); i++) {
		assert_int_equal(shell_decide(&a.rescue, causes[i], 0), SHELL_ASK_PASSWORD);
		assert_int_equal(shell_decide(&a.rescue, causes[i], -ENOENT), SHELL_OPEN);
	}
	bootargs_free(&a);
}

/* A password file that is there but malformed or unreadable fails closed. */
static void unusable_password_file_fails_closed(void **state)
{
	struct boot_args a;

	(void)state;
	args_with(&a, "rd.shell");
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_FAILURE, -EINVAL), SHELL_REFUSED_AUTH_FILE);
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_ACTION, -EACCES), SHELL_REFUSED_AUTH_FILE);
	assert_int_equal(shell_decide(&a.rescue, SHELL_FOR_BREAK, -EIO), SHELL_REFUSED_AUTH_FILE);
	bootargs_free(&a);
}

static int fallback_calls;

static int count_fallback(int fd)
{
	(void)fd;
	fallback_calls++;
	return 0;
}

/* shell_enter itself: refused by rd.shell=0 before anything is printed,
 * looked for or run (no fallback called). */
static void enter_refused_by_rd_shell_0(void **state)
{
	struct shell_request req = { .cause = SHELL_FOR_FAILURE, .fallback = count_fallback };
	struct boot_args a;

	(void)state;
	args_with(&a, "rd.shell=0");
	fallback_calls = 0;
	assert_int_equal(shell_enter(&a.rescue, &req), -EPERM);
	req.cause = SHELL_FOR_ACTION;
	assert_int_equal(shell_enter(&a.rescue, &req), -EPERM);
	assert_int_equal(fallback_calls, 0);
	bootargs_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rd_shell_0_refuses_all_but_rd_break),
		cmocka_unit_test(password_asked_for_every_cause),
		cmocka_unit_test(unusable_password_file_fails_closed),
		cmocka_unit_test(enter_refused_by_rd_shell_0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
