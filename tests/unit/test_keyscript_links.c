/* Unit tests: the /dev/disk/by-* links made for keyscripts
 * (blockstack/devlinks.c): udev's encoding of a tag, the links in a
 * scratch directory, a second device of the same label winning. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/devlinks.h"

static void encoding(void **state)
{
	char out[32];

	(void)state;
	assert_true(devlinks_encode("LBKEYS", out, sizeof(out)));
	assert_string_equal(out, "LBKEYS");
	assert_true(devlinks_encode("a-b_c.d:e=f@g#h+i", out, sizeof(out)));
	assert_string_equal(out, "a-b_c.d:e=f@g#h+i");
	/* A '/' cannot make a directory of it, nor a blank split it. */
	assert_true(devlinks_encode("my keys/../x", out, sizeof(out)));
	assert_string_equal(out, "my\\x20keys\\x2f..\\x2fx");
	assert_true(devlinks_encode("\xc3\xa9", out, sizeof(out)));
	assert_string_equal(out, "\\xc3\\xa9");
	/* Nothing, ".", "..", or too long: no link. */
	assert_false(devlinks_encode("", out, sizeof(out)));
	assert_false(devlinks_encode(".", out, sizeof(out)));
	assert_false(devlinks_encode("..", out, sizeof(out)));
	assert_false(devlinks_encode("////////", out, sizeof(out)));
}

static void links_made(void **state)
{
	char dir[] = "/tmp/lbdevlinks-XXXXXX", path[PATH_MAX], target[64];
	struct blk_info a = { "ext4", "LBKEYS", "1b2c-01", "", "" };
	struct blk_info b = { "vfat", "LBKEYS", "", "0a0b0c0d-01", "key part" };
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(devlinks_add(dir, "vdb", &a), 0);
	snprintf(path, sizeof(path), "%s/by-label/LBKEYS", dir);
	n = readlink(path, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "../../vdb");
	snprintf(path, sizeof(path), "%s/by-uuid/1b2c-01", dir);
	assert_true(readlink(path, target, sizeof(target)) > 0);
	/* The last device of a label has its link. */
	assert_int_equal(devlinks_add(dir, "sda1", &b), 0);
	snprintf(path, sizeof(path), "%s/by-label/LBKEYS", dir);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	assert_string_equal(target, "../../sda1");
	snprintf(path, sizeof(path), "%s/by-partlabel/key\\x20part", dir);
	assert_true(readlink(path, target, sizeof(target)) > 0);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(encoding),
		cmocka_unit_test(links_made),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
