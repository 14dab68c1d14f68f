/* Unit tests: the image's boot scripts (bootlib/hookrun.c) in a scratch
 * directory: which dracut stages run at each lifeboat stage and in what
 * order, their environment, and a script that fails, hangs, may not run
 * or cannot start, each said with its name and the rest run after it. */
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

#include "bootlib/clock.h"
#include "bootlib/hookrun.h"

static char top[64], log_path[128];
static struct hook_args args = { .timeout_sec = 10 };
static struct hookrun_boot boot = { .args = &args, .root = "LABEL=lbext4", .root_kind = "disk",
				     .root_device = "/dev/vda2" };

static void script(const char *rel, const char *body, mode_t mode)
{
	char path[256], cmd[320];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\necho \"$LIFEBOAT_STAGE/${0##*/}\" >> %s\n%s\n", log_path, body);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* What ran, one "STAGE/NAME" a line, and start again. */
static void ran(const char *want)
{
	char got[1024] = "";
	FILE *f = fopen(log_path, "r");
	size_t n = f ? fread(got, 1, sizeof(got) - 1, f) : 0;

	if (f)
		fclose(f);
	got[n] = '\0';
	assert_string_equal(got, want);
	unlink(log_path);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/lifeboat-hookrun-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(log_path, sizeof(log_path), "%s.log", top);
	boot.dir = top;
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", top, log_path);
	return system(cmd);
}

static void stage_mapping(void **state)
{
	(void)state;
	assert_int_equal(hookrun_stage_of("cmdline"), STAGE_CMDLINE);
	assert_int_equal(hookrun_stage_of("pre-udev"), STAGE_PRE_UDEV);
	assert_int_equal(hookrun_stage_of("pre-trigger"), STAGE_PRE_UDEV);
	assert_int_equal(hookrun_stage_of("initqueue"), STAGE_PRE_UDEV);
	assert_int_equal(hookrun_stage_of("initqueue/settled"), STAGE_PRE_UDEV);
	assert_int_equal(hookrun_stage_of("pre-mount"), STAGE_PRE_MOUNT);
	assert_int_equal(hookrun_stage_of("mount"), STAGE_MOUNT);
	assert_int_equal(hookrun_stage_of("pre-pivot"), STAGE_PRE_PIVOT);
	assert_int_equal(hookrun_stage_of("cleanup"), STAGE_PRE_PIVOT);
	assert_int_equal(hookrun_stage_of("shutdown"), -EINVAL);
	assert_int_equal(hookrun_stage_of("initqueue/online"), -EINVAL);
	assert_int_equal(hookrun_stage_of("pre-udevx"), -EINVAL);
}

/* dracut's order of the stages folded into one, name order in each. */
static void order_and_environment(void **state)
{
	char why[256];
	size_t next = 0;

	(void)state;
	script("pre-udev/20-b", "", 0755);
	script("pre-udev/10-a", "", 0755);
	script("initqueue/settled/01-d", "", 0755);
	script("initqueue/05-c", "", 0755);
	script("pre-trigger/10-a", "", 0755);
	script("pre-mount/10-env", "echo \"$NEWROOT $root $PATH $LIFEBOAT_ROOT_KIND $LIFEBOAT_ROOT_DEVICE\" >> $0.out", 0755);
	script("cleanup/10-late", "", 0755);
	assert_int_equal(hookrun_stage(STAGE_PRE_UDEV, &boot, &next, why, sizeof(why)), 0);
	assert_int_equal(next, 5);
	ran("pre-udev/10-a\npre-udev/20-b\npre-trigger/10-a\ninitqueue/05-c\ninitqueue/settled/01-d\n");
	next = 0;
	assert_int_equal(hookrun_stage(STAGE_PRE_MOUNT, &boot, &next, why, sizeof(why)), 0);
	ran("pre-mount/10-env\n");
	next = 0;
	assert_int_equal(hookrun_stage(STAGE_MOUNT, &boot, &next, why, sizeof(why)), 0);
	assert_int_equal(next, 0);
	{
		char out[256], line[256] = "";
		FILE *f;

		snprintf(out, sizeof(out), "%s/pre-mount/10-env.out", top);
		f = fopen(out, "r");
		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		assert_string_equal(line, "/sysroot LABEL=lbext4 /usr/sbin:/usr/bin:/sbin:/bin disk /dev/vda2\n");
	}
}

/* A failing script is named; the next call goes on after it. */
static void failure_then_rest(void **state)
{
	char why[256];
	size_t next = 0;

	(void)state;
	script("pre-pivot/10-ok", "", 0755);
	script("pre-pivot/20-fail", "exit 3", 0755);
	script("cleanup/10-after", "", 0755);
	assert_int_equal(hookrun_stage(STAGE_PRE_PIVOT, &boot, &next, why, sizeof(why)), -EIO);
	assert_string_equal(why, "boot script pre-pivot/20-fail exited with status 3 (its messages "
			    "are above)");
	assert_int_equal(next, 2);
	ran("pre-pivot/10-ok\npre-pivot/20-fail\n");
	assert_int_equal(hookrun_stage(STAGE_PRE_PIVOT, &boot, &next, why, sizeof(why)), 0);
	ran("cleanup/10-after\ncleanup/10-late\n");
}

/* A hung script is killed at rd.hook.timeout, with what it started. */
static void hang_killed(void **state)
{
	char why[256], body[256], child[160];
	size_t next = 0;
	uint64_t t0;

	(void)state;
	snprintf(child, sizeof(child), "%s/child-ran", top);
	snprintf(body, sizeof(body), "(sleep 2; touch %s) &\nsleep 60", child);
	script("cmdline/50-hang", body, 0755);
	args.timeout_sec = 1;
	t0 = clock_now_ms();
	assert_int_equal(hookrun_stage(STAGE_CMDLINE, &boot, &next, why, sizeof(why)), -ETIMEDOUT);
	args.timeout_sec = 10;
	assert_true(clock_now_ms() - t0 < 4000);
	assert_string_equal(why, "boot script cmdline/50-hang did not end within 1 s "
			    "(rd.hook.timeout=) and was stopped");
	sleep(2);
	assert_int_equal(access(child, F_OK), -1);
	ran("cmdline/50-hang\n");
}

/* Writable by others, or not a regular file: not run; one whose
 * interpreter is missing: cannot start. */
static void refused_and_unstartable(void **state)
{
	char why[256], path[256];
	size_t next = 0;

	(void)state;
	script("mount/10-open", "", 0757);
	assert_int_equal(hookrun_stage(STAGE_MOUNT, &boot, &next, why, sizeof(why)), -EPERM);
	assert_string_equal(why, "boot script mount/10-open was not run: it is writable by group or "
			    "others (the image's scripts must be root's and writable by root alone)");
	ran("");
	snprintf(path, sizeof(path), "%s/mount/10-open", top);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/bin/true", path), 0);
	next = 0;
	assert_int_equal(hookrun_stage(STAGE_MOUNT, &boot, &next, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "is not a regular file"));
	assert_int_equal(unlink(path), 0);
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs("#!/nonexistent/interpreter\n", f);
		fclose(f);
		assert_int_equal(chmod(path, 0755), 0);
	}
	next = 0;
	assert_int_equal(hookrun_stage(STAGE_MOUNT, &boot, &next, why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "boot script mount/10-open could not start: No such file or "
			    "directory (is the interpreter its #! line names in the image?)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stage_mapping),
		cmocka_unit_test(order_and_environment),
		cmocka_unit_test(failure_then_rest),
		cmocka_unit_test(hang_killed),
		cmocka_unit_test(refused_and_unstartable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
