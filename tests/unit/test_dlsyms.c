/* Unit tests: bootlib/dlsyms.c, a library's functions by a table: found
 * and callable, a missing library and a missing symbol each said. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/dlsyms.h"

struct libc_fns {
	pid_t (*getpid)(void);
	size_t (*strlen)(const char *);
};

static const struct dlsyms_entry found[] = {
	DLSYMS_ENTRY(struct libc_fns, "getpid", getpid),
	DLSYMS_ENTRY(struct libc_fns, "strlen", strlen),
};

static const struct dlsyms_entry one_missing[] = {
	DLSYMS_ENTRY(struct libc_fns, "getpid", getpid),
	DLSYMS_ENTRY(struct libc_fns, "no_such_function_here", strlen),
};

static void table_filled(void **state)
{
	struct libc_fns fns = { 0 };
	char why[200] = "";

	(void)state;
	assert_int_equal(dlsyms_load("libc.so.6", found, 2, &fns, sizeof(fns), why, sizeof(why)), 0);
	assert_int_equal(fns.getpid(), getpid());
	assert_int_equal(fns.strlen("lifeboat"), 8);
}

static void missing_said(void **state)
{
	struct libc_fns fns = { 0 };
	char why[200] = "";

	(void)state;
	assert_int_equal(dlsyms_load("libc.so.6", one_missing, 2, &fns, sizeof(fns), why, sizeof(why)),
			 -ENOSYS);
	assert_string_equal(why, "libc.so.6 has no no_such_function_here");
	assert_int_equal(dlsyms_load("libnothing-lifeboat.so.9", found, 2, &fns, sizeof(fns), why,
				     sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "libnothing-lifeboat.so.9"));
	/* An offset past the struct is refused, not written. */
	assert_int_equal(dlsyms_load("libc.so.6", found, 2, &fns, sizeof(void *), why, sizeof(why)),
			 -ENOSYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_filled),
		cmocka_unit_test(missing_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
