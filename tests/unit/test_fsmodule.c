/* Unit tests: a filesystem type's module (bootlib/fsmodule.c) is found by
 * its fs-TYPE alias, else by the type's name, through a fake kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/fsmodule.h"
#include "bootlib/modload.h"

/* ext3's module is ext4's file, found only by the alias; lbfs_plain has
 * no alias, as a module that does not declare one. */
static const char table[] =
	"m\tlbfs_four\t/x/lbfs_four.ko\t-\t\n"
	"m\tlbfs_plain\t/x/lbfs_plain.ko\t-\t\n"
	"m\tlbfs_bg\t/x/lbfs_bg.ko\t-\t\n"
	"a\tfs-lbfs_three\tlbfs_four\n"
	"a\tfs-lbfs_four\tlbfs_four\n"
	"a\tfs-lbfs_bg\tlbfs_bg\n";

static char load_log[256];

static int fake_load(const char *path, const char *options)
{
	(void)options;
	snprintf(load_log + strlen(load_log), sizeof(load_log) - strlen(load_log), "%s ",
		 strrchr(path, '/') + 1);
	return 0;
}

static int table_open(void **state)
{
	char path[] = "/tmp/lifeboat-test-fsmodule-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	if (fd < 0 || write(fd, table, sizeof(table) - 1) != (ssize_t)sizeof(table) - 1)
		return -1;
	close(fd);
	modload_load_fn = fake_load;
	fd = modload_open(path);
	unlink(path);
	return fd;
}

static int table_close(void **state)
{
	(void)state;
	modload_close();
	return 0;
}

static void by_alias_then_name(void **state)
{
	(void)state;
	load_log[0] = '\0';
	assert_int_equal(fsmodule_load("lbfs_three"), 1);
	assert_string_equal(load_log, "lbfs_four.ko ");
	assert_int_equal(fsmodule_load("lbfs_four"), 0);
	assert_int_equal(fsmodule_load("lbfs_plain"), 1);
	assert_string_equal(load_log, "lbfs_four.ko lbfs_plain.ko ");
	assert_int_equal(fsmodule_load("lbfs_none"), -ENOENT);
}

static void long_type_refused(void **state)
{
	char type[200];

	(void)state;
	memset(type, 'x', sizeof(type) - 1);
	type[sizeof(type) - 1] = '\0';
	assert_int_equal(fsmodule_load(type), -ENAMETOOLONG);
	assert_int_equal(fsmodule_load_background(type), -ENAMETOOLONG);
}

/* The background load goes by the alias too; the join names it. */
static void in_the_background(void **state)
{
	char name[64];

	(void)state;
	assert_int_equal(fsmodule_load_background("lbfs_none"), -ENOENT);
	assert_int_equal(fsmodule_load_background("lbfs_bg"), 0);
	assert_int_equal(modload_background_join(name, sizeof(name)), 1);
	assert_string_equal(name, "fs-lbfs_bg");
	assert_int_equal(fsmodule_load("lbfs_bg"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_alias_then_name),
		cmocka_unit_test(long_type_refused),
		cmocka_unit_test(in_the_background),
	};

	return cmocka_run_group_tests(tests, table_open, table_close);
}
