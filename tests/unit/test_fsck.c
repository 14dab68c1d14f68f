/* Unit tests: which checker runs for which filesystem, what its exit
 * status means, and rd.fsck=0 / fastboot. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockstack/stack_params.h"
#include "init/bootargs.h"
#include "fsck/fsck.h"

static void checkers(void **state)
{
	(void)state;
	assert_string_equal(fsck_checker_find("ext4")->path, "/usr/sbin/e2fsck");
	assert_non_null(fsck_checker_find("ext2"));
	/* No check where one is not safe or not needed. */
	assert_null(fsck_checker_find("xfs"));
	assert_null(fsck_checker_find("btrfs"));
	assert_null(fsck_checker_find(""));
	assert_null(fsck_checker_find(NULL));
	/* The table the generator walks (gen/feature/fsckpack.c): ends, and each
	 * entry is what find returns for its type. */
	for (size_t i = 0; fsck_checker_at(i); i++) {
		assert_true(i < 16);
		assert_ptr_equal(fsck_checker_find(fsck_checker_at(i)->fstype), fsck_checker_at(i));
	}
	assert_non_null(fsck_checker_at(0));
}

static void exit_status(void **state)
{
	(void)state;
	assert_int_equal(fsck_status_meaning(0), FSCK_CLEAN);
	assert_int_equal(fsck_status_meaning(1), FSCK_REPAIRED);
	assert_int_equal(fsck_status_meaning(2), FSCK_REPAIRED);
	assert_int_equal(fsck_status_meaning(3), FSCK_REPAIRED);
	assert_int_equal(fsck_status_meaning(4), FSCK_FAILED);
	assert_int_equal(fsck_status_meaning(8), FSCK_FAILED);
	assert_int_equal(fsck_status_meaning(12), FSCK_FAILED);
	assert_int_equal(fsck_status_meaning(-2), FSCK_FAILED);
}

static enum fsck_mode fsck_on(const char *line)
{
	struct boot_args args;
	enum fsck_mode mode;

	bootargs_init(&args);
	assert_int_equal(bootargs_parse(line, NULL, &args), 0);
	mode = args.fsck;
	bootargs_free(&args);
	return mode;
}

static void switches(void **state)
{
	(void)state;
	assert_true(fsck_on("root=/dev/vda"));
	assert_false(fsck_on("rd.fsck=0"));
	assert_false(fsck_on("fastboot"));
	assert_true(fsck_on("rd.fsck=0 rd.fsck=1"));
	assert_false(fsck_on("rd.fsck fastboot"));
	/* dracut's and systemd's words, and the kernel's forcefsck. */
	assert_false(fsck_on("rd.skipfsck"));
	assert_true(fsck_on("rd.skipfsck rd.skipfsck=0"));
	assert_int_equal(fsck_on("fsck.mode=skip"), FSCK_MODE_SKIP);
	assert_int_equal(fsck_on("fsck.mode=force"), FSCK_MODE_FORCE);
	assert_int_equal(fsck_on("fsck.mode=force fsck.mode=auto"), FSCK_MODE_AUTO);
	assert_int_equal(fsck_on("forcefsck"), FSCK_MODE_FORCE);
	assert_int_equal(fsck_on("forcefsck rd.skipfsck"), FSCK_MODE_SKIP);
}

/* A value fsck.mode does not know is refused, and the mode stays. */
static void unknown_fsck_mode(void **state)
{
	struct boot_args args;

	(void)state;
	bootargs_init(&args);
	assert_int_equal(bootargs_parse("fsck.mode=force", NULL, &args), 0);
	assert_int_equal(bootargs_parse("fsck.mode=sometimes", NULL, &args), -EINVAL);
	assert_int_equal(bootargs_parse("fsck.mode", NULL, &args), -EINVAL);
	assert_int_equal(args.fsck, FSCK_MODE_FORCE);
	bootargs_free(&args);
}

static void skipped_when_off(void **state)
{
	char out[16] = "x";

	(void)state;
	assert_int_equal(fsck_root("vda", "ext4", FSCK_MODE_SKIP, out, sizeof(out)), FSCK_SKIPPED);
	assert_string_equal(out, "");
	/* No checker for the type: not checked, so no stamp for systemd. */
	assert_int_equal(fsck_root("vda", "xfs", FSCK_MODE_FORCE, out, sizeof(out)),
			 FSCK_SKIPPED);
}

/* The stamp is left only when the root was checked: systemd then skips it. */
static void stamp_only_when_checked(void **state)
{
	char dir[] = "/tmp/lifeboat-fsck-XXXXXX", path[64], why[128];
	struct stat st;

	(void)state;
	assert_int_equal(fsck_before_mount(FSCK_MODE_SKIP, "vda", "ext4", why, sizeof(why)), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/initramfs/fsck-root", dir);
	assert_int_equal(fsck_stamp_leave(path), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 0);
	assert_int_equal(fsck_stamp_leave(path), 0);   /* a retry after the rescue */
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/initramfs", dir);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checkers),
		cmocka_unit_test(exit_status),
		cmocka_unit_test(switches),
		cmocka_unit_test(unknown_fsck_mode),
		cmocka_unit_test(skipped_when_off),
		cmocka_unit_test(stamp_only_when_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
