/* Tests for gen/host/tanghost: the Tang URL the generator shows comes from
 * the host disk's LUKS2 header (through lifeboat-clevis --list), so it is
 * escaped before it reaches the terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "gen/host/tanghost.h"

static void url_escaped(void **state)
{
	char url[128];

	(void)state;
	assert_true(tanghost_list_parse("0 tang http://x\033]2;owned\a\033[2J:7500\n", url,
					sizeof(url)));
	assert_string_equal(url, "http://x\\x1b]2;owned\\a\\x1b[2J:7500");
	/* Cut at a whole escape. */
	assert_true(tanghost_list_parse("0 sss http://ab\033c\n", url, 12));
	assert_string_equal(url, "http://ab");
	assert_true(tanghost_list_any_pin("0 tang http://x\033\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(url_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
