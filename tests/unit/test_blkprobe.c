/* Tests for bootlib/blkprobe: the device list of the failure summary and
 * the rescue report shows a disk's label and UUIDs escaped, as anyone's
 * stick may hold terminal escapes in them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/blkprobe.h"
#include "tests/unit/image_fixture.h"

static char *printed(const char *dev, const struct blk_info *info)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	blkprobe_print(out, dev, info);
	assert_int_equal(fclose(out), 0);
	return text;
}

static void fields_escaped(void **state)
{
	struct blk_info info = {
		.type = "ext4", .label = "a\033[2J\033[1;1H", .uuid = "u\" LABEL=\"root",
		.partuuid = "", .partlabel = "p\r\n  /dev/sda TYPE=\"x\"",
	};
	char *text;

	(void)state;
	text = printed("sdb1", &info);
	assert_string_equal(text, "  /dev/sdb1 TYPE=\"ext4\" LABEL=\"a\\x1b[2J\\x1b[1;1H\" "
			    "UUID=\"u\\x22 LABEL=\\x22root\" PARTUUID=\"\" "
			    "PARTLABEL=\"p\\r\\n  /dev/sda TYPE=\\x22x\\x22\"\n");
	free(text);
	text = printed("sr\0330", NULL);
	assert_string_equal(text, "  /dev/sr\\x1b0 (unreadable)\n");
	free(text);
}

/* The label as libblkid reads it from a filesystem that mkfs made. */
static void label_from_disk(void **state)
{
	char *dir = fixture_tmpdir(), dev[PATH_MAX], *text;
	struct blk_info info;

	(void)state;
	if (fixture_sh("truncate -s 8M %s/lbl.img && mkfs.ext4 -q -F -L \"$(printf "
		       "'a\\033[2J\\033[1;1H')\" %s/lbl.img 2>/dev/null", dir, dir) != 0) {
		fixture_rmrf(dir);
		skip();
	}
	/* blkprobe_dev opens /dev/NAME. */
	snprintf(dev, sizeof(dev), "..%s/lbl.img", dir);
	assert_int_equal(blkprobe_dev(dev, &info), 0);
	assert_string_equal(info.label, "a\033[2J\033[1;1H");
	text = printed("sdz", &info);
	assert_non_null(strstr(text, " LABEL=\"a\\x1b[2J\\x1b[1;1H\" "));
	assert_null(strchr(text, '\033'));
	free(text);
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_escaped),
		cmocka_unit_test(label_from_disk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
