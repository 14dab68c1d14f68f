/* Tests for common/termescape: what lifeboat ls, the init's device list and
 * its clevis messages let reach the terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "common/termescape.h"

static void escaped_is(const char *in, size_t len, unsigned int flags, const char *want)
{
	char out[256];
	size_t n = term_escape(out, sizeof(out), in, len, flags);

	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
	assert_int_equal(term_escape(NULL, 0, in, len, flags), n);
}

#define ESCAPED_IS(in, flags, want) escaped_is(in, sizeof(in) - 1, flags, want)

static void test_plain(void **state)
{
	(void)state;
	ESCAPED_IS("usr/lib/x86_64-linux-gnu/libc.so.6", 0, "usr/lib/x86_64-linux-gnu/libc.so.6");
	ESCAPED_IS("a b~", 0, "a b~");
	ESCAPED_IS("", 0, "");
	/* The backslash itself, so an escape in the output is never ambiguous. */
	ESCAPED_IS("a\\x1b", 0, "a\\\\x1b");
}

static void test_controls(void **state)
{
	(void)state;
	ESCAPED_IS("\033[2J\033]0;title\a", 0, "\\x1b[2J\\x1b]0;title\\a");
	ESCAPED_IS("one\ntwo\r\t\b\f\v", 0, "one\\ntwo\\r\\t\\b\\f\\v");
	ESCAPED_IS("del\x7f", 0, "del\\x7f");
	ESCAPED_IS("nul\0end", 0, "nul\\x00end");
	ESCAPED_IS("\x01\x1f", 0, "\\x01\\x1f");
}

static void test_keep_newline(void **state)
{
	(void)state;
	ESCAPED_IS("a = 1\nb = \033[8m\r\n", TERM_ESCAPE_KEEP_NEWLINE, "a = 1\nb = \\x1b[8m\\r\n");
	ESCAPED_IS("tab\there\n", TERM_ESCAPE_KEEP_NEWLINE, "tab\\there\n");
}

/* A value between double quotes: its quote cannot close it. */
static void test_quote(void **state)
{
	(void)state;
	ESCAPED_IS("a\" UUID=\"b", TERM_ESCAPE_QUOTE, "a\\x22 UUID=\\x22b");
	ESCAPED_IS("a\"b", 0, "a\"b");
}

static void test_utf8(void **state)
{
	(void)state;
	/* Well-formed and harmless: as it is (2, 3 and 4 bytes). */
	ESCAPED_IS("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9b\x9f", 0, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9b\x9f");
	ESCAPED_IS("\xef\xbf\xbd", 0, "\xef\xbf\xbd");
	/* Stray, overlong, surrogate, past U+10FFFF, cut short. */
	ESCAPED_IS("\xff\xfe", 0, "\\xff\\xfe");
	ESCAPED_IS("\x80x", 0, "\\x80x");
	ESCAPED_IS("\xc0\xaf", 0, "\\xc0\\xaf");
	ESCAPED_IS("\xe0\x80\xaf", 0, "\\xe0\\x80\\xaf");
	ESCAPED_IS("\xed\xa0\x80", 0, "\\xed\\xa0\\x80");
	ESCAPED_IS("\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80");
	ESCAPED_IS("\xe2\x82", 0, "\\xe2\\x82");
	ESCAPED_IS("\xe2\x82x", 0, "\\xe2\\x82x");
	ESCAPED_IS("\xf0\x9f\x9bx", 0, "\\xf0\\x9f\\x9bx");
}

static void test_utf8_controls(void **state)
{
	(void)state;
	/* C1 CSI (U+009B), right-to-left override, zero-width space, line
	 * separator, byte-order mark: valid, but they act on what is shown. */
	ESCAPED_IS("\xc2\x9b" "31m", 0, "\\xc2\\x9b" "31m");
	ESCAPED_IS("evil\xe2\x80\xaetxt.sh", 0, "evil\\xe2\\x80\\xaetxt.sh");
	ESCAPED_IS("a\xe2\x80\x8b" "b", 0, "a\\xe2\\x80\\x8b" "b");
	ESCAPED_IS("\xe2\x80\xa8", 0, "\\xe2\\x80\\xa8");
	ESCAPED_IS("\xe2\x81\xa6", 0, "\\xe2\\x81\\xa6");
	ESCAPED_IS("\xef\xbb\xbf", 0, "\\xef\\xbb\\xbf");
	/* Their neighbours are ordinary text. */
	ESCAPED_IS("\xc2\xa0\xe2\x80\xaf", 0, "\xc2\xa0\xe2\x80\xaf");
}

/* Like snprintf: the whole length back, only whole escapes written. */
static void test_cut(void **state)
{
	char out[8];

	(void)state;
	memset(out, 'z', sizeof(out));
	assert_int_equal(term_escape(out, 4, "ab\033", 3, 0), 6);
	assert_string_equal(out, "ab");
	assert_int_equal(term_escape(out, 7, "ab\033", 3, 0), 6);
	assert_string_equal(out, "ab\\x1b");
	assert_int_equal(term_escape(out, 3, "a\xc3\xa9", 3, 0), 3);
	assert_string_equal(out, "a");
	assert_int_equal(term_escape(out, 1, "abc", 3, 0), 3);
	assert_string_equal(out, "");
	/* Nothing after a cut, even a unit that would fit. */
	assert_int_equal(term_escape(out, 5, "a\033b", 3, 0), 6);
	assert_string_equal(out, "a");
}

/* Every byte value, alone: never a raw control byte out. */
static void test_every_byte(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		char in = (char)c, out[8];
		size_t n = term_escape(out, sizeof(out), &in, 1, 0);

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			assert_int_equal(n, 1);
			assert_int_equal((unsigned char)out[0], c);
		} else {
			assert_int_equal(out[0], '\\');
			for (size_t i = 0; i < n; i++)
				assert_true(out[i] >= 0x20 && out[i] < 0x7f);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_keep_newline),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_utf8_controls),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
