/* Tests for blockstack/lukstang's reading of lifeboat-clevis's output:
 * its reasons reach the console escaped (a Tang URL comes from the disk's
 * LUKS2 header), and the pins that opened the container. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "blockstack/lukstang.h"

static void lines_escaped(void **state)
{
	const char *out = "clevis token 0 on /dev/vda2: tang server http://x\033]2;owned\a\033[2J/: "
			  "refused\n\n\ncr\rhere\n";
	char line[256];

	(void)state;
	assert_true(lukstang_next_line(&out, line, sizeof(line)));
	assert_string_equal(line, "clevis token 0 on /dev/vda2: tang server "
			    "http://x\\x1b]2;owned\\a\\x1b[2J/: refused");
	/* Empty lines are skipped, a carriage return cannot rewrite the line. */
	assert_true(lukstang_next_line(&out, line, sizeof(line)));
	assert_string_equal(line, "cr\\rhere");
	assert_false(lukstang_next_line(&out, line, sizeof(line)));
	out = "";
	assert_false(lukstang_next_line(&out, line, sizeof(line)));
}

/* A line longer than the buffer is cut at a whole escape. */
static void long_line_cut(void **state)
{
	const char *out = "abc\033def\nnext";
	char line[6];

	(void)state;
	assert_true(lukstang_next_line(&out, line, sizeof(line)));
	assert_string_equal(line, "abc");
	assert_true(lukstang_next_line(&out, line, sizeof(line)));
	assert_string_equal(line, "next");
}

static void used_pins(void **state)
{
	char used[64];

	(void)state;
	lukstang_used_pins("clevis token 0: tpm2: no TPM\nclevis-used: sss (tang)\n", used,
			   sizeof(used));
	assert_string_equal(used, "clevis sss (tang)");
	lukstang_used_pins("clevis-used: t\033[31mang", used, sizeof(used));
	assert_string_equal(used, "clevis t\\x1b[31mang");
	lukstang_used_pins("nothing said\n", used, sizeof(used));
	assert_string_equal(used, "clevis");
}

/* What failed on the way to the binding that opened it: every line but
 * the one naming what opened it. */
static void failures_after_unlock(void **state)
{
	const char *out = "clevis token 0 on /dev/vda: sss share 2 (tang): tang server "
			  "http://198.51.100.1:7501: connection refused\nclevis-used: sss (tang)\n"
			  "\033[2J\n";
	char line[256];

	(void)state;
	assert_true(lukstang_next_failure(&out, line, sizeof(line)));
	assert_string_equal(line, "clevis token 0 on /dev/vda: sss share 2 (tang): tang server "
				  "http://198.51.100.1:7501: connection refused");
	assert_true(lukstang_next_failure(&out, line, sizeof(line)));
	assert_string_equal(line, "\\x1b[2J");
	assert_false(lukstang_next_failure(&out, line, sizeof(line)));
	out = "clevis-used: tang\n";
	assert_false(lukstang_next_failure(&out, line, sizeof(line)));
	out = "clevis-binding: token 1, tang server http://x\nclevis-used: tang\n";
	assert_false(lukstang_next_failure(&out, line, sizeof(line)));
}

/* Which binding opened it, for the line that ends a prompt: the token and
 * its server, escaped (the URL is the disk header's). */
static void binding_named(void **state)
{
	char binding[96];

	(void)state;
	lukstang_binding("clevis token 0 on /dev/vda: tang server http://a: connection refused\n"
			 "clevis-binding: token 1, tang server http://198.51.100.1:7500\n"
			 "clevis-used: tang\n", binding, sizeof(binding));
	assert_string_equal(binding, "its clevis binding (token 1, tang server "
				     "http://198.51.100.1:7500)");
	lukstang_binding("clevis-binding: token 2, tang server http://\033[2J\n", binding,
			 sizeof(binding));
	assert_string_equal(binding, "its clevis binding (token 2, tang server http://\\x1b[2J)");
	lukstang_binding("clevis-used: tang\n", binding, sizeof(binding));
	assert_string_equal(binding, "its clevis binding");
	/* Only a line of its own says it, not a reason quoting it. */
	lukstang_binding("clevis token 0: tang server http://clevis-binding: token 9\n"
			 "clevis-binding: token 1\n", binding, sizeof(binding));
	assert_string_equal(binding, "its clevis binding (token 1)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_escaped),
		cmocka_unit_test(long_line_cut),
		cmocka_unit_test(used_pins),
		cmocka_unit_test(failures_after_unlock),
		cmocka_unit_test(binding_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
