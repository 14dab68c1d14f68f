/* Fake-root case: the resume decision on a swap device holding a kernel
 * hibernation image. It hands the image to the kernel (/sys/power/resume)
 * while no block filesystem is mounted, mounting nothing itself, and
 * keeps away from it when one is. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "init/bootargs.h"
#include "resume/resume.h"
#include "tests/fakeroot/fakeroot.h"

#define PAGE 4096

static struct fr_tree tree;

/* The first page of a swap area the kernel hibernated into (the layout
 * is in resume/swsusp.c): its signature, what it replaced, an image page. */
static void swap_hibernated(const struct fr_tree *t, const char *rel)
{
	unsigned char page[PAGE] = { 0 };
	unsigned long long image = 1;
	char path[512];
	int fd;

	memcpy(page + PAGE - 10, "S1SUSPEND", 10);
	memcpy(page + PAGE - 20, "SWAPSPACE2", 10);
	memcpy(page + PAGE - 32, &image, sizeof(image));
	snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
	assert_int_equal(fr_write(t, rel, ""), 0);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, page, sizeof(page)), sizeof(page));
	assert_int_equal(ftruncate(fd, 16 * PAGE), 0);
	close(fd);
}

static int tree_fill(void **state)
{
	(void)state;
	assert_int_equal(fr_tree_make(&tree), 0);
	assert_int_equal(fr_write(&tree, "proc/cmdline", "root=LABEL=fakeroot resume=/dev/vdd\n"), 0);
	swap_hibernated(&tree, "images/swap.img");
	assert_int_equal(fr_block_add(&tree, "vdd", 254, 48, "images/swap.img"), 0);
	return 0;
}

/* The kernel's attributes, empty again, and the mount table of this test. */
static void tables_set(const char *mountinfo)
{
	assert_int_equal(fr_write(&tree, "sys/power/resume", ""), 0);
	assert_int_equal(fr_write(&tree, "sys/power/resume_offset", ""), 0);
	assert_int_equal(fr_write(&tree, "proc/self/mountinfo", mountinfo), 0);
}

static void attr(const char *rel, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", tree.dir, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void decide(void)
{
	struct boot_args args;

	bootargs_init(&args);
	assert_int_equal(bootargs_load(&args), 0);
	resume_from_hibernation(&args.resume);
	bootargs_free(&args);
}

static const char early_mounts[] =
	"20 1 0:5 / /dev rw,nosuid - devtmpfs devtmpfs rw\n"
	"21 1 0:20 / /proc rw,nosuid,nodev,noexec - proc proc rw\n"
	"22 1 0:21 / /sys rw,nosuid,nodev,noexec - sysfs sysfs rw\n";

static void image_handed_to_the_kernel(void **state)
{
	char value[64], calls[1024];

	(void)state;
	tables_set(early_mounts);
	decide();
	attr("sys/power/resume", value, sizeof(value));
	assert_string_equal(value, "254:48");
	attr("sys/power/resume_offset", value, sizeof(value));
	assert_string_equal(value, "0");
	/* Nothing mounted, nothing loaded: the decision comes first. */
	fr_calls(&tree, calls, sizeof(calls));
	assert_string_equal(calls, "");
}

static void not_with_a_filesystem_mounted(void **state)
{
	char value[64], mounts[512];

	(void)state;
	snprintf(mounts, sizeof(mounts), "%s%s", early_mounts,
		 "30 1 254:1 / /mnt ro,relatime - ext4 /dev/vda1 ro\n");
	tables_set(mounts);
	decide();
	attr("sys/power/resume", value, sizeof(value));
	assert_string_equal(value, "");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(image_handed_to_the_kernel),
		cmocka_unit_test(not_with_a_filesystem_mounted),
	};

	(void)argc;
	fr_preload(argv);
	return cmocka_run_group_tests(tests, tree_fill, fr_tree_teardown);
}
