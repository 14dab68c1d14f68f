/* Unit tests: the generator's record of the host's resume device
 * (/proc/swaps parsing, /sys/power/resume, UUIDs of mkswap'd files). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/host/resumehost.h"

#define HEADING "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
#define SWAP_UUID "0d4c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d"

static void pick_largest_partition(void **state)
{
	char path[128];

	(void)state;
	assert_int_equal(resumehost_swaps_pick_largest(HEADING
		"/dev/sda2                               partition\t1000\t\t0\t\t-2\n"
		"/swapfile                               file\t\t900000\t\t0\t\t-3\n"
		"/dev/nvme0n1p3                          partition\t4000\t\t0\t\t-4\n"
		"/dev/zram0                              partition\t2000\t\t0\t\t100\n",
		path, sizeof(path)), 0);
	assert_string_equal(path, "/dev/nvme0n1p3");
	/* Blanks in paths are escaped as octal. */
	assert_int_equal(resumehost_swaps_pick_largest(HEADING "/dev/my\\040swap partition 5 0 -2\n",
					    path, sizeof(path)), 0);
	assert_string_equal(path, "/dev/my swap");
}

static void pick_none(void **state)
{
	char path[16];

	(void)state;
	assert_int_equal(resumehost_swaps_pick_largest(HEADING, path, sizeof(path)), -ENOENT);
	assert_int_equal(resumehost_swaps_pick_largest("", path, sizeof(path)), -ENOENT);
	assert_int_equal(resumehost_swaps_pick_largest(HEADING "/swapfile file 100 0 -2\n", path, sizeof(path)), -ENOENT);
	assert_int_equal(resumehost_swaps_pick_largest(HEADING "/dev/sda2 partition\n", path, sizeof(path)), -ENOENT);
	/* A path that does not fit is not cut short. */
	assert_int_equal(resumehost_swaps_pick_largest(HEADING "/dev/disk/by-id/very-long-name partition 5 0 -2\n",
					    path, sizeof(path)), -ENOENT);
	/* The heading alone is never taken for an entry. */
	assert_int_equal(resumehost_swaps_pick_largest("/dev/sda1 partition 5 0 -2\n", path, sizeof(path)), -ENOENT);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *fake_root(void)
{
	static char dir[64];
	char path[128];

	snprintf(dir, sizeof(dir), "/tmp/lifeboat-rh-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sys", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/power", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	return dir;
}

static void remove_root(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The kernel's setting wins; without a device to name it is kept as MAJ:MIN. */
static void detect_from_sysfs(void **state)
{
	const char *root = fake_root();
	struct resume_host h;

	(void)state;
	write_text(root, "/sys/power/resume", "254:16\n");
	write_text(root, "/sys/power/resume_offset", "34816\n");
	write_text(root, "/proc/swaps", HEADING "/dev/sda2 partition 5 0 -2\n");
	assert_int_equal(resumehost_detect(root, &h), 0);
	assert_string_equal(h.spec, "254:16");
	assert_true(h.offset == 34816);
	assert_string_equal(h.from, "/sys/power/resume");
	remove_root(root);
}

/* 0:0 means unset: the largest swap partition, named by its UUID. */
static void detect_from_swaps(void **state)
{
	const char *root = fake_root();
	char swap[128], cmd[512], text[512];
	struct resume_host h;

	(void)state;
	if (access("/sbin/mkswap", X_OK) != 0)
		fail_msg("needs mkswap (util-linux)");
	snprintf(swap, sizeof(swap), "%s/swap.img", root);
	snprintf(cmd, sizeof(cmd), "truncate -s 1M %s && mkswap -q -U %s %s >/dev/null 2>&1",
		 swap, SWAP_UUID, swap);
	assert_int_equal(system(cmd), 0);
	write_text(root, "/sys/power/resume", "0:0\n");
	snprintf(text, sizeof(text), HEADING "%s partition 1020 0 -2\n/swapfile file 9000 0 -3\n", swap);
	write_text(root, "/proc/swaps", text);
	assert_int_equal(resumehost_detect(root, &h), 0);
	assert_string_equal(h.spec, "UUID=" SWAP_UUID);
	assert_true(h.offset == 0);
	assert_string_equal(h.from, "/proc/swaps");
	/* Not a swap (any more): nothing is recorded rather than a guess. */
	snprintf(cmd, sizeof(cmd), "dd if=/dev/zero of=%s bs=4096 count=1 conv=notrunc status=none", swap);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(resumehost_detect(root, &h), -ENOENT);
	remove_root(root);
}

static void detect_nothing(void **state)
{
	const char *root = fake_root();
	struct resume_host h;

	(void)state;
	assert_int_equal(resumehost_detect(root, &h), -ENOENT);
	write_text(root, "/proc/swaps", HEADING);
	assert_int_equal(resumehost_detect(root, &h), -ENOENT);
	remove_root(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pick_largest_partition),
		cmocka_unit_test(pick_none),
		cmocka_unit_test(detect_from_sysfs),
		cmocka_unit_test(detect_from_swaps),
		cmocka_unit_test(detect_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
