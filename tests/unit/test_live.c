/* Unit tests: a live root's words (net/live/, net/live_args.c):
 * root=live:URL, sha256sum's checksum files, rd.live.overlay.size= (the
 * plan's kind for root=live: is in test_plan.c; the SHA-256 itself in
 * test_live_hash.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "net/live/live_sum.h"
#include "net/live/live_url.h"
#include "net/live_args.h"

#define EMPTY_SUM "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define ABC_SUM "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static void urls(void **state)
{
	struct live_url u;

	(void)state;
	assert_true(live_url_is_live("live:http://x/y"));
	assert_false(live_url_is_live("LABEL=live"));
	assert_int_equal(live_url_parse("live:http://198.51.100.1:8080/images/root.squashfs", &u), 0);
	assert_string_equal(u.url, "http://198.51.100.1:8080/images/root.squashfs");
	assert_string_equal(u.sum_url, "http://198.51.100.1:8080/images/root.squashfs.sha256");
	assert_string_equal(u.name, "root.squashfs");
	assert_string_equal(u.shown, u.url);
	assert_false(u.https);
	assert_int_equal(live_url_parse("live:HTTPS://[2001:db8::1]:8443/r.img?token=abc", &u), 0);
	assert_true(u.https);
	assert_string_equal(u.name, "r.img");
	assert_string_equal(u.sum_url, "HTTPS://[2001:db8::1]:8443/r.img.sha256?token=abc");
	/* A signed URL's token is not shown in messages or the timeline. */
	assert_string_equal(u.shown, "HTTPS://[2001:db8::1]:8443/r.img?...");
	assert_string_equal(u.sum_shown, "HTTPS://[2001:db8::1]:8443/r.img.sha256?...");
	assert_int_equal(live_url_parse("live:https://[2001:db8::1]/r.img", &u), 0);
	assert_int_equal(live_url_parse("live:ftp://h/r.img", &u), -EPROTONOSUPPORT);
	assert_int_equal(live_url_parse("live:/dev/sda1", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http:///r.img", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://h", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://h/", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://h/dir/", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://h/..", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://h/r.img#x", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://h/r img", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://user:pw@h/r.img", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://[2001:db8::1/r.img", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://[2001:db8::1]x/r.img", &u), -EINVAL);
	assert_int_equal(live_url_parse("live:http://[]/r.img", &u), -EINVAL);
	assert_int_equal(live_url_parse("root=/dev/sda", &u), -EINVAL);
}

static void url_too_long(void **state)
{
	char root[LIVE_URL_MAX + 32] = "live:http://h/";
	struct live_url u;

	(void)state;
	memset(root + strlen(root), 'a', LIVE_URL_MAX);
	root[sizeof(root) - 1] = '\0';
	assert_int_equal(live_url_parse(root, &u), -EINVAL);
	/* The longest URL that fits still needs room for ".sha256". */
	root[5 + LIVE_URL_MAX - 3] = '\0';
	assert_int_equal(live_url_parse(root, &u), -EINVAL);
}

static int sum_of(const char *text, const char *name, char hex[LIVE_SUM_HEX])
{
	uint8_t sum[SHA256_LEN];
	int r = live_sum_parse(text, strlen(text), name, sum);

	live_sum_to_hex(sum, hex);
	return r;
}

static void sum_files(void **state)
{
	char hex[LIVE_SUM_HEX];

	(void)state;
	assert_int_equal(sum_of(ABC_SUM "  root.squashfs\n", "root.squashfs", hex), 0);
	assert_string_equal(hex, ABC_SUM);
	/* Binary mode, a directory, other files' lines, CRLF, a comment. */
	assert_int_equal(sum_of("# made by sha256sum\r\n" EMPTY_SUM "  other.img\r\n"
				"BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD *./out/root.squashfs\r\n",
				"root.squashfs", hex), 0);
	assert_string_equal(hex, ABC_SUM);
	/* A bare hash, no name, no newline. */
	assert_int_equal(sum_of(ABC_SUM, "root.squashfs", hex), 0);
	assert_string_equal(hex, ABC_SUM);
	assert_int_equal(sum_of(ABC_SUM "  root.squashfs\n" ABC_SUM "  root.squashfs\n", "root.squashfs", hex), 0);
	/* Nothing for the image: not another file's hash. */
	assert_int_equal(sum_of(EMPTY_SUM "  other.img\n", "root.squashfs", hex), -ENOENT);
	assert_int_equal(sum_of("", "root.squashfs", hex), -ENOENT);
	assert_int_equal(sum_of(EMPTY_SUM "  root.squashfs.old\n", "root.squashfs", hex), -ENOENT);
	/* Malformed or ambiguous: refused, not guessed at. */
	assert_int_equal(sum_of(ABC_SUM "  root.squashfs\n" EMPTY_SUM "  root.squashfs\n", "root.squashfs", hex), -EINVAL);
	assert_int_equal(sum_of(ABC_SUM " root.squashfs\n", "root.squashfs", hex), -EINVAL);
	assert_int_equal(sum_of(ABC_SUM "  \n", "root.squashfs", hex), -EINVAL);
	assert_int_equal(sum_of("ba7816bf  root.squashfs\n", "root.squashfs", hex), -EINVAL);
	assert_int_equal(sum_of(ABC_SUM "0  root.squashfs\n", "root.squashfs", hex), -EINVAL);
	assert_int_equal(sum_of("<html>404</html>\n", "root.squashfs", hex), -EINVAL);
	assert_int_equal(sum_of("zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  root.squashfs", "root.squashfs", hex), -EINVAL);
}

static void hash_words(void **state)
{
	uint8_t sum[SHA256_LEN];
	char hex[LIVE_SUM_HEX];

	(void)state;
	assert_int_equal(live_sum_from_hex(ABC_SUM, strlen(ABC_SUM), sum), 0);
	live_sum_to_hex(sum, hex);
	assert_string_equal(hex, ABC_SUM);
	assert_int_equal(live_sum_from_hex(ABC_SUM, 63, sum), -EINVAL);
	assert_int_equal(live_sum_from_hex("ga7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", 64, sum), -EINVAL);
	assert_true(live_args_size_ok("512m"));
	assert_true(live_args_size_ok("50%"));
	assert_true(live_args_size_ok("1073741824"));
	assert_false(live_args_size_ok(""));
	assert_false(live_args_size_ok("m"));
	assert_false(live_args_size_ok("1g,exec"));
	assert_false(live_args_size_ok("1gb"));
	assert_false(live_args_size_ok("-1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(urls),
		cmocka_unit_test(url_too_long),
		cmocka_unit_test(sum_files),
		cmocka_unit_test(hash_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
