/* test_build_all: `lifeboat build --kver all`: the installed kernels found
 * (each once, sorted), -o's %k, the options it needs, and builds that
 * fail reported as a failure of the whole. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gen/opts/build_opts.h"
#include "gen/cmd/build_all.h"
#include "gen/kmod/kernel.h"

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static void output_names(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(build_all_output("/boot/initrd.img-%k", "6.1.0-57-amd64", out, sizeof(out)), 0);
	assert_string_equal(out, "/boot/initrd.img-6.1.0-57-amd64");
	assert_int_equal(build_all_output("%k/%k.img 100%", "v1", out, sizeof(out)), 0);
	assert_string_equal(out, "v1/v1.img 100%");
	assert_int_equal(build_all_output("/boot/initrd.img-%k", "6.1.0-57-amd64-x", out, sizeof(out)),
			 -ENAMETOOLONG);
}

static void options(void **state)
{
	char *no_pattern[] = { "build", "--config", "/dev/null", "--kver", "all", "-o", "/boot/x", NULL };
	char *good[] = { "build", "--config", "/dev/null", "-k", "all", "-j", "3", "-o", "/tmp/i-%k", NULL };
	char *bad_jobs[] = { "build", "--config", "/dev/null", "-k", "all", "-j", "0", "-o", "/tmp/i-%k", NULL };
	struct build_opts o;

	(void)state;
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 7, no_pattern), -EINVAL);
	build_opts_free(&o);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 9, good), 0);
	assert_string_equal(o.kver, BUILD_KVER_ALL);
	assert_int_equal(o.jobs, 3);
	build_opts_free(&o);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 9, bad_jobs), -EINVAL);
	build_opts_free(&o);
}

/* A tree with modules in lib/modules and usr/lib/modules, one version in
 * both (merged /usr), one without modules.dep. */
static char *kernel_tree(void)
{
	char *root = strdup("/tmp/lbkallXXXXXX"), cmd[512];

	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p lib/modules/2.0 lib/modules/1.0 lib/modules/3.0-nodep "
		 "usr/lib/modules/2.0 usr/lib/modules/4.0 && touch lib/modules/2.0/modules.dep "
		 "lib/modules/1.0/modules.dep usr/lib/modules/2.0/modules.dep usr/lib/modules/4.0/modules.dep",
		 root);
	sh(cmd);
	return root;
}

static void kernels_listed(void **state)
{
	struct strv v = STRV_INIT;
	char *root = kernel_tree(), cmd[300];

	(void)state;
	assert_int_equal(kernel_list(root, &v), 0);
	assert_int_equal(v.len, 3);
	assert_string_equal(v.items[0], "1.0");
	assert_string_equal(v.items[1], "2.0");
	assert_string_equal(v.items[2], "4.0");
	strv_free(&v);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	sh(cmd);
	free(root);
}

/* No kernel at all; then three whose builds all fail (empty module trees,
 * and no lifeboat-init beside this test): every child runs, reports, and
 * the whole fails without writing an image. */
static void failures_counted(void **state)
{
	struct build_opts o;
	char *root = kernel_tree(), out[400], cmd[600];

	(void)state;
	build_opts_init(&o);
	o.mode = BUILD_GENERIC;
	o.kmoddir = root;
	o.compress_given = true;
	snprintf(out, sizeof(out), "%s/initrd-%%k", root);
	o.output = out;
	o.jobs = 2;
	assert_int_equal(build_all(&o, NULL), -EIO);
	snprintf(cmd, sizeof(cmd), "! ls %s/initrd-* 2>/dev/null", root);
	sh(cmd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/lib %s/usr", root, root);
	sh(cmd);
	assert_int_equal(build_all(&o, NULL), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	sh(cmd);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(output_names),
		cmocka_unit_test(options),
		cmocka_unit_test(kernels_listed),
		cmocka_unit_test(failures_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
