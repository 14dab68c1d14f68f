/* Unit tests: config files and build options (files, then the command line). */
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

#include "gen/opts/build_opts.h"
#include "gen/opts/config.h"

struct seen {
	char keys[8][32];
	char values[8][64];
	unsigned int lines[8];
	int n;
};

static int record(const char *key, const char *value, const char *file, unsigned int line, void *ctx)
{
	struct seen *s = ctx;

	(void)file;
	if (s->n >= 8)
		return -E2BIG;
	snprintf(s->keys[s->n], sizeof(s->keys[0]), "%s", key);
	snprintf(s->values[s->n], sizeof(s->values[0]), "%s", value);
	s->lines[s->n++] = line;
	return 0;
}

static void parses_key_value_lines(void **state)
{
	static const char text[] = "# comment\n\n  kver = 6.1.0-57-amd64  \ncmdline=\"root=LABEL=x quiet\"\n"
				   "add_modules = a, b\nempty =\n";
	struct seen s = { .n = 0 };

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), "t.conf", record, &s), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.keys[0], "kver");
	assert_string_equal(s.values[0], "6.1.0-57-amd64");
	assert_int_equal(s.lines[0], 3);
	assert_string_equal(s.values[1], "root=LABEL=x quiet");
	assert_string_equal(s.values[2], "a, b");
	assert_string_equal(s.keys[3], "empty");
	assert_string_equal(s.values[3], "");
}

static void rejects_lines_without_equals(void **state)
{
	static const char text[] = "kver = 1\nthis is not a setting\n";
	struct seen s = { .n = 0 };

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), "t.conf", record, &s), -EINVAL);
	assert_int_equal(s.n, 1);
	assert_int_equal(config_parse("= value\n", 8, "t.conf", record, &s), -EINVAL);
}

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/lifeboat-test-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* The file sets values, the command line wins; lists accumulate. */
static void command_line_wins_over_config(void **state)
{
	char *conf = write_temp("kver = from-file\nmode = generic\nadd_modules = a,b\ncompress = none\n");
	char arg_config[300];
	char *argv[] = { "build", arg_config, "--kver", "from-cli", "--add-modules=c",
			 "--host-only", "-o", "out.img", "-v", NULL };
	struct build_opts o;

	(void)state;
	snprintf(arg_config, sizeof(arg_config), "--config=%s", conf);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 9, argv), 0);
	assert_string_equal(o.kver, "from-cli");
	assert_int_equal(o.mode, BUILD_HOST_ONLY);
	assert_int_equal(o.compress, SINK_NONE);
	assert_int_equal(o.add_modules.len, 3);
	assert_string_equal(o.add_modules.items[2], "c");
	assert_string_equal(o.output, "out.img");
	assert_true(o.verbose);
	build_opts_free(&o);
	unlink(conf);
	free(conf);
}

/* parse ARGV (NULL-terminated) into a fresh build_opts; returns the result. */
static int parse_fresh(char **argv, struct build_opts *o)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	build_opts_init(o);
	return build_opts_parse(o, argc, argv);
}

/* --live brings the network; --live-ca names the CAs and implies --live. */
static void live_options(void **state)
{
	char *live[] = { "build", "--config=/dev/null", "--live", "-o", "out.img", NULL };
	char *ca[] = { "build", "--config=/dev/null", "--live-ca", "/etc/test-ca.pem", "-o", "out.img", NULL };
	struct build_opts o;

	(void)state;
	assert_int_equal(parse_fresh(live, &o), 0);
	assert_true(o.live && o.net);
	assert_null(o.live_ca);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(ca, &o), 0);
	assert_true(o.live && o.net);
	assert_string_equal(o.live_ca, "/etc/test-ca.pem");
	build_opts_free(&o);
}

/* --sign-key and --sign-cert go together, and only with --uki; a signed
 * image has a command line of its own unless --uki-loader-cmdline. */
static void uki_signing_options(void **state)
{
	char *both[] = { "build", "--config", "/dev/null", "--uki", "--cmdline", "root=LABEL=r ro", "--sign-key", "k", "--sign-cert", "c", "-o", "x", NULL };
	char *empty_cmdline[] = { "build", "--config", "/dev/null", "--uki", "--cmdline", " ", "--sign-key", "k", "--sign-cert", "c", "-o", "x", NULL };
	char *loader[] = { "build", "--config", "/dev/null", "--uki", "--uki-loader-cmdline", "--sign-key", "k", "--sign-cert", "c", "-o", "x", NULL };
	char *loader_and_cmdline[] = { "build", "--config", "/dev/null", "--uki", "--uki-loader-cmdline", "--cmdline", "ro", "-o", "x", NULL };
	char *loader_no_uki[] = { "build", "--config", "/dev/null", "--uki-loader-cmdline", "-o", "x", NULL };
	char *key_only[] = { "build", "--config", "/dev/null", "--uki", "--sign-key", "k", "-o", "x", NULL };
	char *no_uki[] = { "build", "--config", "/dev/null", "--sign-key", "k", "--sign-cert", "c", "-o", "x", NULL };
	char *stub_no_uki[] = { "build", "--config", "/dev/null", "--uki-stub", "s", "-o", "x", NULL };
	struct build_opts o;

	(void)state;
	assert_int_equal(parse_fresh(both, &o), 0);
	assert_true(o.uki);
	assert_string_equal(o.sign_key, "k");
	assert_string_equal(o.sign_cert, "c");
	assert_string_equal(o.uki_cmdline, "root=LABEL=r ro");
	build_opts_free(&o);
	assert_int_equal(parse_fresh(empty_cmdline, &o), -EINVAL);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(loader, &o), 0);
	assert_true(o.uki_loader_cmdline);
	assert_null(o.uki_cmdline);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(loader_and_cmdline, &o), -EINVAL);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(loader_no_uki, &o), -EINVAL);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(key_only, &o), -EINVAL);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(no_uki, &o), -EINVAL);
	build_opts_free(&o);
	assert_int_equal(parse_fresh(stub_no_uki, &o), -EINVAL);
	build_opts_free(&o);
}

static void usage_errors(void **state)
{
	char *no_output[] = { "build", "--config", "/dev/null", NULL };
	char *unknown[] = { "build", "--config", "/dev/null", "--frobnicate", "-o", "x", NULL };
	char *bad_value[] = { "build", "--config", "/dev/null", "--compress", "bzip2", "-o", "x", NULL };
	char *missing_value[] = { "build", "--config", "/dev/null", "-o", NULL };
	char *conf = write_temp("no_such_key = 1\n");
	char *bad_key[] = { "build", "--config", conf, "-o", "x", NULL };
	struct build_opts o;

	(void)state;
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 3, no_output), -EINVAL);
	build_opts_free(&o);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 6, unknown), -EINVAL);
	build_opts_free(&o);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 7, bad_value), -EINVAL);
	build_opts_free(&o);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 4, missing_value), -EINVAL);
	build_opts_free(&o);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 5, bad_key), -EINVAL);
	build_opts_free(&o);
	unlink(conf);
	free(conf);
}

static int apply_setting(const char *key, const char *value, const char *file,
			 unsigned int line, void *ctx)
{
	(void)line;
	return build_opts_set(ctx, key, value, file);
}

/* A kdump target with files of its own is one value, quoted for its ';'
 * and '='; targets from files and the command line add up in order. */
static void kdump_targets_from_config(void **state)
{
	char *conf = write_temp("kdump = yes\n"
				"kdump_target = \"https://198.51.100.1/d/;cafile=/etc/pki/ca.pem\"\n"
				"kdump_options = netrc=/root/n, action=poweroff\n");
	char arg_config[300];
	char *argv[] = { "build", arg_config, "--kdump-target", "sftp://u@h/d/;knownhosts=/k,LABEL=x",
			 "-o", "out.img", NULL };
	struct build_opts o;

	(void)state;
	snprintf(arg_config, sizeof(arg_config), "--config=%s", conf);
	build_opts_init(&o);
	assert_int_equal(build_opts_parse(&o, 6, argv), 0);
	assert_true(o.kdump);
	assert_int_equal(o.kdump_targets.len, 3);
	assert_string_equal(o.kdump_targets.items[0], "https://198.51.100.1/d/;cafile=/etc/pki/ca.pem");
	assert_string_equal(o.kdump_targets.items[1], "sftp://u@h/d/;knownhosts=/k");
	assert_string_equal(o.kdump_targets.items[2], "LABEL=x");
	assert_int_equal(o.kdump_options.len, 2);
	assert_string_equal(o.kdump_options.items[1], "action=poweroff");
	build_opts_free(&o);
	unlink(conf);
	free(conf);
}

/* /etc/lifeboat.conf then lifeboat.conf.d/ in name order: later files win. */
static void system_config_order(void **state)
{
	char root[] = "/tmp/lifeboat-root-XXXXXX";
	char path[400];
	struct build_opts o;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/etc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/etc/lifeboat.conf.d", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/etc/lifeboat.conf", root);
	f = fopen(path, "w");
	fputs("kver = base\ncmdline = one\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/etc/lifeboat.conf.d/20-b.conf", root);
	f = fopen(path, "w");
	fputs("kver = twenty\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/etc/lifeboat.conf.d/10-a.conf", root);
	f = fopen(path, "w");
	fputs("kver = ten\ncmdline = two\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/etc/lifeboat.conf.d/README", root);
	f = fopen(path, "w");
	fputs("not a config\n", f);
	fclose(f);
	build_opts_init(&o);
	assert_int_equal(config_load_system(root, apply_setting, &o), 0);
	assert_string_equal(o.kver, "twenty");
	assert_string_equal(o.cmdline, "two");
	build_opts_free(&o);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_key_value_lines),
		cmocka_unit_test(rejects_lines_without_equals),
		cmocka_unit_test(command_line_wins_over_config),
		cmocka_unit_test(usage_errors),
		cmocka_unit_test(uki_signing_options),
		cmocka_unit_test(live_options),
		cmocka_unit_test(system_config_order),
		cmocka_unit_test(kdump_targets_from_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
