/* Unit tests: which existing block device a spec names (bootlib/devwait.c's
 * devwait_lookup, the one matcher of the root's wait and of a LUKS key
 * device), on a fake /sys/class/block and /dev in a mount namespace of the
 * test's own. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/devwait.h"
#include "tests/unit/image_fixture.h"

static bool have_ext4;

/* /sys/class/block/NAME/ATTR holding text and a newline, as sysfs shows it. */
static void fake_attr(const char *name, const char *attr, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", name, attr);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void fake_block(const char *name, const char *devnum, const char *dm_name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	assert_int_equal(mkdir(path, 0755), 0);
	fake_attr(name, "dev", devnum);
	if (!dm_name)
		return;
	snprintf(path, sizeof(path), "/sys/class/block/%s/dm", name);
	assert_int_equal(mkdir(path, 0755), 0);
	fake_attr(name, "dm/name", dm_name);
}

/* vda and vdb (an ext4 filesystem labelled "keys", as a file at /dev/vdb
 * for libblkid) and dm-0 (mapper/root). Skipped without the right to make
 * a mount namespace. */
static int fake_sysfs(void **state)
{
	(void)state;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("none", "/sys/class/block", "tmpfs", 0, "mode=0755") < 0 ||
	    mount("none", "/dev", "tmpfs", 0, "mode=0755") < 0)
		return 0;
	fake_block("vda", "253:0", NULL);
	fake_block("vdb", "253:16", NULL);
	fake_block("dm-0", "254:0", "root");
	have_ext4 = fixture_sh("truncate -s 8M /dev/vdb && mkfs.ext4 -q -F -L keys "
			       "-U 0b5e1f7a-54c1-4b1e-9c1e-2f8d1c0ffee0 /dev/vdb 2>/dev/null") == 0;
	return 0;
}

static int lookup(const char *text, struct found_dev *dev)
{
	struct dev_spec spec;

	assert_int_equal(devspec_parse(text, &spec), 0);
	return devwait_lookup(&spec, dev);
}

static void by_path_and_number(void **state)
{
	struct found_dev dev;

	(void)state;
	if (access("/sys/class/block/vda", F_OK) < 0)
		skip();
	assert_int_equal(lookup("/dev/vda", &dev), 0);
	assert_string_equal(dev.devname, "vda");
	assert_int_equal(dev.major, 253);
	assert_int_equal(dev.minor, 0);
	assert_int_equal(lookup("253:16", &dev), 0);
	assert_string_equal(dev.devname, "vdb");
	assert_int_equal(lookup("/dev/mapper/root", &dev), 0);
	assert_string_equal(dev.devname, "dm-0");
	assert_int_equal(lookup("/dev/vdc", &dev), -ENODEV);
	assert_string_equal(dev.devname, "");
	assert_int_equal(lookup("253:1", &dev), -ENODEV);
}

/* A tag is matched on what libblkid reads; a UUID in either case. */
static void by_label_and_uuid(void **state)
{
	struct found_dev dev;

	(void)state;
	if (!have_ext4)
		skip();
	assert_int_equal(lookup("LABEL=keys", &dev), 0);
	assert_string_equal(dev.devname, "vdb");
	assert_string_equal(dev.info.type, "ext4");
	assert_int_equal(lookup("UUID=0B5E1F7A-54C1-4B1E-9C1E-2F8D1C0FFEE0", &dev), 0);
	assert_string_equal(dev.devname, "vdb");
	assert_int_equal(lookup("/dev/disk/by-label/keys", &dev), 0);
	assert_int_equal(lookup("LABEL=other", &dev), -ENODEV);
	/* By path, the identity is probed too (the root's type for mount). */
	assert_int_equal(lookup("/dev/vdb", &dev), 0);
	assert_string_equal(dev.info.label, "keys");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_path_and_number),
		cmocka_unit_test(by_label_and_uuid),
	};

	return cmocka_run_group_tests(tests, fake_sysfs, NULL);
}
