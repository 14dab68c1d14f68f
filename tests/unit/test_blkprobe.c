/* Tests for bootlib/blkprobe: the device list of the failure summary and
 * the rescue report shows a disk's labels escaped, and a UUID the disk
 * wrote as text (LUKS) is escaped when probed, as anyone's stick may hold
 * terminal escapes in them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		.type = "ext4", .label = "a\033[2J\033[1;1H", .uuid = "abcd-ef01",
		.partuuid = "", .partlabel = "p\r\n  /dev/sda TYPE=\"x\"",
	};
	char *text;

	(void)state;
	text = printed("sdb1", &info);
	assert_string_equal(text, "  /dev/sdb1 TYPE=\"ext4\" LABEL=\"a\\x1b[2J\\x1b[1;1H\" "
			    "UUID=\"abcd-ef01\" PARTUUID=\"\" "
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

/* A LUKS1 header whose UUID (40 bytes of text at offset 168) holds an
 * escape and a quote: libblkid hands it over as it is. */
static void luks_uuid_escaped(void **state)
{
	char *dir = fixture_tmpdir(), dev[PATH_MAX];
	unsigned char hdr[4096] = { 'L', 'U', 'K', 'S', 0xba, 0xbe, 0, 1 };
	static const char uuid[] = "ab\033[2J\"cd";
	struct blk_info info;
	FILE *f;

	(void)state;
	memcpy(hdr + 8, "aes", 3);
	memcpy(hdr + 40, "xts-plain64", 11);
	memcpy(hdr + 72, "sha256", 6);
	memcpy(hdr + 168, uuid, sizeof(uuid) - 1);
	snprintf(dev, sizeof(dev), "%s/luks.img", dir);
	f = fopen(dev, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	assert_int_equal(ftruncate(fileno(f), 1 << 20), 0);
	assert_int_equal(fclose(f), 0);
	snprintf(dev, sizeof(dev), "..%s/luks.img", dir);
	assert_int_equal(blkprobe_dev(dev, &info), 0);
	assert_string_equal(info.type, "crypto_LUKS");
	assert_string_equal(info.uuid, "ab\\x1b[2J\\x22cd");
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_escaped),
		cmocka_unit_test(label_from_disk),
		cmocka_unit_test(luks_uuid_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
