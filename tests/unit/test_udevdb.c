/* Unit tests: udev's database entries left for the real root
 * (blockstack/udevdb.c): the text systemd-udevd would read, the file and its
 * mode, and which devices of a fake /sys/class/block (a tmpfs over it in
 * the test's own mount namespace) get which entry. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "blockstack/udevdb.h"
#include "tests/unit/image_fixture.h"

/* The devices fake_is_pv calls physical volumes. */
static const char *pv_names = "";

static bool fake_is_pv(const char *devname)
{
	return strstr(pv_names, devname) != NULL;
}

#define SYSBLOCK UDEVDB_SYSBLOCK

/* A block device in the fake sysfs: its dev attribute, and for an md
 * array its array_state. */
static void fake_dev(const char *name, const char *dev, const char *md_state)
{
	assert_int_equal(fixture_sh("mkdir -p " SYSBLOCK "/%s/md && printf '%%s' '%s' > " SYSBLOCK
				    "/%s/dev", name, dev, name), 0);
	if (md_state)
		assert_int_equal(fixture_sh("echo %s > " SYSBLOCK "/%s/md/array_state", md_state,
					    name), 0);
}

/* A fresh, empty /sys/class/block for each test. */
static int fresh_sysblock(void **state)
{
	(void)state;
	umount2(SYSBLOCK, MNT_DETACH);
	return mount("none", SYSBLOCK, "tmpfs", 0, "mode=0755");
}

static char *read_text(const char *path)
{
	size_t len;
	char *text = (char *)fixture_read(path, &len);

	if (text)
		text[len] = '\0';
	return text;
}

/* A dm device's entry: the time, device-mapper's flags, the version. */
static void test_format_dm(void **state)
{
	struct udevdb_entry e = { .usec = 4711000 };
	char buf[256];
	int len;

	(void)state;
	fake_dev("dm-1", "253:1\n", NULL);
	assert_int_equal(udevdb_entry_for("dm-1", fake_is_pv, &e), 1);
	len = udevdb_format(&e, buf, sizeof(buf));
	assert_int_equal(len, (int)strlen(buf));
	assert_string_equal(buf, "I:4711000\nE:DM_UDEV_PRIMARY_SOURCE_FLAG=1\n"
			    "E:DM_UDEV_RULES_VSN=2\nV:1\n");
}

/* A buffer one byte short is refused, not cut. */
static void test_format_short(void **state)
{
	struct udevdb_entry e = { .usec = 1, .props = { "A=1" }, .n_props = 1 };
	char buf[64];
	int len = udevdb_format(&e, buf, sizeof(buf));

	(void)state;
	assert_int_equal(len, (int)strlen("I:1\nE:A=1\nV:1\n"));
	assert_int_equal(udevdb_format(&e, buf, (size_t)len), -ENOSPC);
	assert_int_equal(udevdb_format(&e, buf, 3), -ENOSPC);
}

/* The file: under bMAJOR:MINOR, the directories made, mode 01644, no
 * temporary file left; a second write replaces it. */
static void test_write(void **state)
{
	char *dir = fixture_tmpdir();
	char db[256], path[320];
	struct udevdb_entry e = { .major = 9, .minor = 127, .usec = 5,
				  .props = { "LVM_MD_PV_ACTIVATED=1" }, .n_props = 1 };
	struct stat st;
	char *text;

	(void)state;
	snprintf(db, sizeof(db), "%s/run/udev/data", dir);
	assert_int_equal(udevdb_write(db, &e), 0);
	e.usec = 6;
	assert_int_equal(udevdb_write(db, &e), 0);
	snprintf(path, sizeof(path), "%s/b9:127", db);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 01644);
	text = read_text(path);
	assert_non_null(text);
	assert_string_equal(text, "I:6\nE:LVM_MD_PV_ACTIVATED=1\nV:1\n");
	free(text);
	assert_int_equal(fixture_sh("test $(ls -A '%s' | wc -l) = 1", db), 0);
	fixture_rmrf(dir);
}

/* Which device gets what: dm devices always; an md array only while it
 * runs and holds a physical volume; partitions of an array, disks and
 * idle arrays nothing. */
static void test_entry_for(void **state)
{
	struct udevdb_entry e;

	(void)state;
	fake_dev("dm-3", "253:3\n", NULL);
	fake_dev("md0", "9:0\n", "clean");
	fake_dev("md1", "9:1\n", "inactive");
	fake_dev("md2", "9:2\n", "active");
	fake_dev("md0p1", "259:0\n", NULL);
	fake_dev("vda", "254:0\n", NULL);
	pv_names = "md0 md1 md0p1 vda";
	assert_int_equal(udevdb_entry_for("dm-3", fake_is_pv, &e), 1);
	assert_int_equal(e.major, 253);
	assert_int_equal(e.minor, 3);
	assert_string_equal(e.props[0], "DM_UDEV_PRIMARY_SOURCE_FLAG=1");
	assert_int_equal(udevdb_entry_for("md0", fake_is_pv, &e), 1);
	assert_int_equal(e.n_props, 1);
	assert_string_equal(e.props[0], "LVM_MD_PV_ACTIVATED=1");
	assert_int_equal(e.major, 9);
	assert_int_equal(e.minor, 0);
	assert_int_equal(udevdb_entry_for("md1", fake_is_pv, &e), 0);
	assert_int_equal(udevdb_entry_for("md2", fake_is_pv, &e), 0);
	assert_int_equal(udevdb_entry_for("md0p1", fake_is_pv, &e), 0);
	assert_int_equal(udevdb_entry_for("vda", fake_is_pv, &e), 0);
}

/* A dev attribute that is not MAJOR:MINOR is refused. */
static void test_bad_devnum(void **state)
{
	static const char *const bad[] = { "253", ":1", "253:", "x:1", "" };
	struct udevdb_entry e;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_dev("dm-0", bad[i], NULL);
		assert_int_equal(udevdb_entry_for("dm-0", fake_is_pv, &e), -ENODEV);
	}
}

/* The whole sysfs: every dm device and the running array of a physical
 * volume, nothing else; a device whose entry cannot be made is named. */
static void test_leave(void **state)
{
	char *dir = fixture_tmpdir();
	char db[200], path[256], failed[64] = "";
	char *text;

	(void)state;
	snprintf(db, sizeof(db), "%s/data", dir);
	fake_dev("dm-0", "253:0\n", NULL);
	fake_dev("dm-1", "253:1\n", NULL);
	fake_dev("md127", "9:127\n", "active-idle");
	fake_dev("vda", "254:0\n", NULL);
	pv_names = "md127 vda";
	assert_int_equal(udevdb_leave(db, dir, fake_is_pv, 77, failed, sizeof(failed)), 3);
	assert_int_equal(fixture_sh("cd '%s' && test \"$(ls | tr '\\n' ' ')\" = 'b253:0 b253:1 b9:127 '",
				    db), 0);
	snprintf(path, sizeof(path), "%s/b253:1", db);
	text = read_text(path);
	assert_string_equal(text, "I:77\nE:DM_UDEV_PRIMARY_SOURCE_FLAG=1\nE:DM_UDEV_RULES_VSN=2\nV:1\n");
	free(text);
	fake_dev("dm-2", "garbage", NULL);
	assert_int_equal(udevdb_leave(db, dir, fake_is_pv, 77, failed, sizeof(failed)), -ENODEV);
	assert_string_equal(failed, "/dev/dm-2");
	fixture_rmrf(dir);
}

/* Its own mount namespace (the tests run as root), so that the tmpfs over
 * /sys/class/block is the test's alone. */
static int own_namespace(void **state)
{
	(void)state;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	return 0;
}

/* /dev/mapper/NAME: a node of the device becomes the link udev makes; a
 * link, a node of another device or no file at all are left as they are. */
static void test_mapper_link(void **state)
{
	char *dir = fixture_tmpdir();
	struct udevdb_entry e = { .major = 253, .minor = 1 };

	(void)state;
	fake_dev("dm-1", "253:1\n", NULL);
	assert_int_equal(fixture_sh("mkdir -p " SYSBLOCK "/dm-1/dm && echo vg-swap > " SYSBLOCK
				    "/dm-1/dm/name && mkdir '%s/mapper'", dir), 0);
	assert_int_equal(udevdb_mapper_link(dir, "dm-1", &e), 0);
	assert_int_equal(fixture_sh("mknod '%s/mapper/vg-swap' b 253 9", dir), 0);
	assert_int_equal(udevdb_mapper_link(dir, "dm-1", &e), 0);
	assert_int_equal(fixture_sh("test -b '%s/mapper/vg-swap'", dir), 0);
	assert_int_equal(fixture_sh("rm '%s/mapper/vg-swap' && mknod '%s/mapper/vg-swap' b 253 1",
				    dir, dir), 0);
	assert_int_equal(udevdb_mapper_link(dir, "dm-1", &e), 1);
	assert_int_equal(udevdb_mapper_link(dir, "dm-1", &e), 0);
	assert_int_equal(fixture_sh("test \"$(readlink '%s/mapper/vg-swap')\" = ../dm-1 && "
				    "test $(ls -A '%s/mapper' | wc -l) = 1", dir, dir), 0);
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_short),
		cmocka_unit_test(test_write),
		cmocka_unit_test_setup(test_format_dm, fresh_sysblock),
		cmocka_unit_test_setup(test_entry_for, fresh_sysblock),
		cmocka_unit_test_setup(test_bad_devnum, fresh_sysblock),
		cmocka_unit_test_setup(test_leave, fresh_sysblock),
		cmocka_unit_test_setup(test_mapper_link, fresh_sysblock),
	};

	return cmocka_run_group_tests(tests, own_namespace, NULL);
}
