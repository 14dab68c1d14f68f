/* Unit tests: the hooks.d directories (gen/host/hookdirs.c): the later
 * directory's entry wins and a symlink to /dev/null disables one, name
 * order, the rule of who may own and write a hook and its directories
 * (common/hookspec.c), and running them: the environment, the requests,
 * and a hook that fails, writes a bad line or hangs. */
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
#include "common/hookspec.h"
#include "gen/host/hookdirs.h"

static char top[64];
static char pkg[128], admin[128];

static void put(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/lifeboat-hookdirs-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(pkg, sizeof(pkg), "%s/usr", top);
	snprintf(admin, sizeof(admin), "%s/etc", top);
	return mkdir(pkg, 0755) || mkdir(admin, 0755);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd);
}

static const struct hookdirs_env env = { .kver = "6.1.0-9-amd64", .moddir = "/lib/modules/6.1.0-9-amd64",
					 .mode = "generic", .tmpdir = "/tmp/lb-scratch" };

static void override_disable_order(void **state)
{
	const char *const dirs[] = { pkg, admin, "/nonexistent/hooks.d" };
	struct hook_set set;
	char link[256];

	(void)state;
	put(pkg, "20-b", "#!/bin/sh\n", 0755);
	put(pkg, "10-a", "#!/bin/sh\n", 0755);
	put(pkg, "30-c", "#!/bin/sh\n", 0755);
	put(pkg, ".hidden", "#!/bin/sh\n", 0755);
	put(admin, "20-b", "#!/bin/sh\n", 0755);
	snprintf(link, sizeof(link), "%s/30-c", admin);
	assert_int_equal(symlink("/dev/null", link), 0);
	assert_int_equal(hookdirs_list(dirs, 3, &set), 0);
	assert_int_equal(set.len, 3);
	assert_string_equal(set.items[0].name, "10-a");
	assert_string_equal(set.items[0].dir, pkg);
	assert_string_equal(set.items[1].name, "20-b");
	assert_string_equal(set.items[1].dir, admin);
	assert_string_equal(set.items[2].name, "30-c");
	assert_null(set.items[2].path);
	hookdirs_free(&set);
}

/* The rule itself, on what stat says. */
static void trust_rule(void **state)
{
	struct stat st = { .st_mode = S_IFREG | 0755, .st_uid = 0 };
	const char *why = NULL;

	(void)state;
	assert_int_equal(hookspec_file_trusted(&st, &why), 0);
	st.st_mode = S_IFREG | 0775;
	assert_int_equal(hookspec_file_trusted(&st, &why), -EPERM);
	assert_string_equal(why, "is writable by group or others");
	st.st_mode = S_IFREG | 0757;
	assert_int_equal(hookspec_file_trusted(&st, &why), -EPERM);
	st.st_mode = S_IFREG | 0644;
	assert_int_equal(hookspec_file_trusted(&st, &why), -EPERM);
	assert_string_equal(why, "is not executable");
	st.st_mode = S_IFREG | 0755;
	st.st_uid = 1000;
	assert_int_equal(hookspec_file_trusted(&st, &why), -EPERM);
	assert_string_equal(why, "is not owned by root");
	st.st_uid = 0;
	st.st_mode = S_IFLNK | 0777;
	assert_int_equal(hookspec_file_trusted(&st, &why), -EPERM);
	assert_string_equal(why, "is not a regular file");
	st.st_mode = S_IFDIR | 0755;
	assert_int_equal(hookspec_dir_trusted(&st, &why), 0);
	st.st_mode = S_IFDIR | 01777;
	assert_int_equal(hookspec_dir_trusted(&st, &why), -EPERM);
	st.st_mode = S_IFREG | 0755;
	assert_int_equal(hookspec_dir_trusted(&st, &why), -EPERM);
}

/* A hook of one dir under top, listed alone. */
static void one_hook(const char *dir, const char *name, const char *text, mode_t mode,
		     struct hook_set *set)
{
	const char *const dirs[] = { dir };

	put(dir, name, text, mode);
	assert_int_equal(hookdirs_list(dirs, 1, set), 0);
	assert_int_equal(set->len, 1);
}

static void refused_files(void **state)
{
	char dir[128], elsewhere[128], link[256], target[256];
	struct hook_set set;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/check", top);
	assert_int_equal(mkdir(dir, 0755), 0);
	one_hook(dir, "10-x", "#!/bin/sh\n", 0755, &set);
	assert_int_equal(hookdirs_check(&set.items[0]), 0);
	assert_int_equal(chmod(set.items[0].path, 0775), 0);
	assert_int_equal(hookdirs_check(&set.items[0]), -EPERM);
	assert_int_equal(chmod(set.items[0].path, 0755), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(set.items[0].path, 1000, 0), 0);
		assert_int_equal(hookdirs_check(&set.items[0]), -EPERM);
		assert_int_equal(chown(set.items[0].path, 0, 0), 0);
	}
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(hookdirs_check(&set.items[0]), -EPERM);
	assert_int_equal(chmod(dir, 0755), 0);
	hookdirs_free(&set);
	/* A symlink into a directory others may write: refused, though the
	 * file and the directory listing it are fine. */
	snprintf(elsewhere, sizeof(elsewhere), "%s/open", top);
	assert_int_equal(mkdir(elsewhere, 0755), 0);
	assert_int_equal(chmod(elsewhere, 01777), 0);
	put(elsewhere, "real", "#!/bin/sh\n", 0755);
	snprintf(link, sizeof(link), "%s/20-link", dir);
	snprintf(target, sizeof(target), "%s/real", elsewhere);
	assert_int_equal(symlink(target, link), 0);
	{
		const char *const dirs[] = { dir };

		assert_int_equal(hookdirs_list(dirs, 1, &set), 0);
	}
	assert_int_equal(set.len, 2);
	assert_int_equal(hookdirs_check(&set.items[1]), -EPERM);
	hookdirs_free(&set);
}

/* Its environment is what the contract says and nothing of ours; its
 * requests come back. */
static void runs_with_environment(void **state)
{
	char dir[128];
	struct hook_set set;
	struct hookreq_list out = { 0 };

	(void)state;
	snprintf(dir, sizeof(dir), "%s/env", top);
	assert_int_equal(mkdir(dir, 0755), 0);
	setenv("LIFEBOAT_TEST_LEAK", "leaked", 1);
	one_hook(dir, "10-env", "#!/bin/sh\necho \"cmdline k=$LIFEBOAT_KVER m=$LIFEBOAT_MODE "
		 "d=$LIFEBOAT_MODDIR a=$LIFEBOAT_HOOKS_API h=$LIFEBOAT_HOOK v=$LIFEBOAT_VERBOSE "
		 "t=$LIFEBOAT_TMPDIR l=$LIFEBOAT_TEST_LEAK\"\necho 'module dm_mod'\necho to-the-user >&2\n", 0755, &set);
	assert_int_equal(hookdirs_run(&set, &env, 5000, &out), 0);
	assert_int_equal(out.len, 2);
	assert_string_equal(out.items[0].arg, "k=6.1.0-9-amd64 m=generic d=/lib/modules/6.1.0-9-amd64 "
			    "a=1 h=10-env v=0 t=/tmp/lb-scratch l=");
	assert_string_equal(out.items[1].arg, "dm_mod");
	assert_string_equal(out.items[1].hook, set.items[0].path);
	unsetenv("LIFEBOAT_TEST_LEAK");
	hookreq_list_free(&out);
	hookdirs_free(&set);
}

/* A failure stops the run: the hooks after it do not run. */
static void failure_stops(void **state)
{
	char dir[128], text[512], late[256];
	const char *const dirs[] = { dir };
	struct hook_set set;
	struct hookreq_list out = { 0 };

	(void)state;
	snprintf(dir, sizeof(dir), "%s/fail", top);
	snprintf(late, sizeof(late), "%s/late-ran", top);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(text, sizeof(text), "#!/bin/sh\ntouch %s\n", late);
	put(dir, "20-late", text, 0755);
	put(dir, "10-fail", "#!/bin/sh\necho 'module a'\nexit 3\n", 0755);
	assert_int_equal(hookdirs_list(dirs, 1, &set), 0);
	assert_int_equal(hookdirs_run(&set, &env, 5000, &out), -EIO);
	assert_int_equal(access(late, F_OK), -1);
	hookreq_list_free(&out);
	put(dir, "10-fail", "#!/bin/sh\necho 'module a b'\n", 0755);
	assert_int_equal(hookdirs_run(&set, &env, 5000, &out), -EINVAL);
	assert_int_equal(access(late, F_OK), -1);
	hookreq_list_free(&out);
	put(dir, "10-fail", "#!/bin/sh\necho 'module a'\n", 0755);
	assert_int_equal(hookdirs_run(&set, &env, 5000, &out), 0);
	assert_int_equal(access(late, F_OK), 0);
	hookreq_list_free(&out);
	hookdirs_free(&set);
}

/* A hook that hangs is stopped at its bound, with what it started. */
static void hang_is_stopped(void **state)
{
	char dir[128], text[512], late[256];
	struct hook_set set;
	struct hookreq_list out = { 0 };
	uint64_t t0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/hang", top);
	snprintf(late, sizeof(late), "%s/child-ran", top);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(text, sizeof(text), "#!/bin/sh\n(sleep 1; touch %s) &\nsleep 30\n", late);
	one_hook(dir, "10-hang", text, 0755, &set);
	t0 = clock_now_ms();
	assert_int_equal(hookdirs_run(&set, &env, 300, &out), -ETIMEDOUT);
	assert_true(clock_now_ms() - t0 < 5000);
	usleep(1500 * 1000);
	assert_int_equal(access(late, F_OK), -1);
	hookreq_list_free(&out);
	hookdirs_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(override_disable_order),
		cmocka_unit_test(trust_rule),
		cmocka_unit_test(refused_files),
		cmocka_unit_test(runs_with_environment),
		cmocka_unit_test(failure_stops),
		cmocka_unit_test(hang_is_stopped),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
