/* test_kdump_conf: the capture settings file and the capture kernel's
 * command line derived from the running one. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/kdumpconf.h"
#include "gen/cmd/kdump_load.h"

static void conf_full(void **state)
{
	struct kdump_conf c;
	int bad = 0;

	(void)state;
	kdump_conf_init(&c);
	assert_int_equal(c.level, 31);
	assert_int_equal(c.formats, FORMAT_KDUMP);
	assert_int_equal(c.compress, COMPRESS_LZO);
	assert_int_equal(kdump_conf_parse("# comment\n\ntarget LABEL=a:/var/crash\n"
					  "  target   http://198.51.100.1/dumps/  \n"
					  "level 17\nformat kdump elf\ncompress zlib\naction poweroff\n"
					  "failure_action shell\n"
					  "target https://198.51.100.1/d/;cafile=/etc/ca.pem", &c, &bad), 0);
	assert_int_equal(c.ntargets, 3);
	assert_string_equal(c.targets[0].where, "LABEL=a:/var/crash");
	assert_string_equal(c.targets[1].where, "http://198.51.100.1/dumps/");
	assert_string_equal(c.targets[1].cafile, "");
	assert_string_equal(c.targets[2].where, "https://198.51.100.1/d/");
	assert_string_equal(c.targets[2].cafile, "/etc/ca.pem");
	assert_int_equal(c.level, 17);
	assert_int_equal(c.formats, FORMAT_KDUMP | FORMAT_ELF);
	assert_int_equal(c.compress, COMPRESS_ZLIB);
	assert_string_equal(kdump_conf_compress_name(c.compress), "zlib");
	assert_int_equal(c.action, ACTION_POWEROFF);
	assert_int_equal(c.failure_action, ACTION_SHELL);
}

static void conf_refused(void **state)
{
	const char *bad_texts[] = { "level 32\n", "level -1\n", "level x\n", "format lzo\n", "compress snappy\n", "compress\n", "compress zlib lzo\n",
				    "action halt\n", "target\n", "colour blue\n",
				    "cafile /etc/ca.pem\n", "target http://h/;cafile=/ca.pem\n" };
	struct kdump_conf c;
	int bad;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_texts) / sizeof(bad_texts[0]); i++) {
		kdump_conf_init(&c);
		bad = 0;
		assert_int_equal(kdump_conf_parse(bad_texts[i], &c, &bad), -EINVAL);
		assert_int_equal(bad, 1);
	}
	kdump_conf_init(&c);
	assert_int_equal(kdump_conf_parse("target a\ntarget b\ntarget c\ntarget d\ntarget e\n"
					  "target f\ntarget g\ntarget h\ntarget i\n", &c, &bad), -EINVAL);
	assert_int_equal(bad, 9);
}

/* Each target's own files: read, refused where they do not fit, written back. */
static void target_files(void **state)
{
	struct kdump_target t;
	const char *why = NULL;
	char out[2048];

	(void)state;
	assert_int_equal(kdump_target_parse("sftp://kd@198.51.100.1:2222/dumps/;knownhosts=/k;sshkey=/id",
					    &t, &why), 0);
	assert_string_equal(t.where, "sftp://kd@198.51.100.1:2222/dumps/");
	assert_string_equal(t.sshkey, "/id");
	assert_string_equal(t.knownhosts, "/k");
	assert_string_equal(t.cafile, "");
	assert_int_equal(kdump_target_format(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "sftp://kd@198.51.100.1:2222/dumps/;sshkey=/id;knownhosts=/k");
	assert_int_equal(kdump_target_format(&t, out, 20), -ENAMETOOLONG);

	assert_int_equal(kdump_target_parse("https://h/d/;cafile=/etc/a b.pem", &t, &why), 0);
	assert_string_equal(t.cafile, "/etc/a b.pem");
	assert_int_equal(kdump_target_format(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "https://h/d/;cafile=/etc/a b.pem");
	assert_int_equal(kdump_target_parse("LABEL=a:/var/crash", &t, &why), 0);
	assert_int_equal(kdump_target_format(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "LABEL=a:/var/crash");
	/* A user name without a password is fine; an @ in the path too. */
	assert_int_equal(kdump_target_parse("ftp://kd@h/d/", &t, &why), 0);
	assert_int_equal(kdump_target_parse("http://h/a:b@c/", &t, &why), 0);
	assert_true(kdump_target_is("https://h/", "https"));
	assert_false(kdump_target_is("http://h/", "https"));
	assert_false(kdump_target_is("httpsx://h/", "https"));
}

static void target_refused(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "http://h/;cafile=/ca", "cafile= is for https" },
		{ "LABEL=a;cafile=/ca", "cafile= is for https" },
		{ "https://h/;sshkey=/id", "sshkey= is for sftp" },
		{ "nfs:198.51.100.1:/x;knownhosts=/k", "knownhosts= is for sftp" },
		{ "https://h/;cafile=", "missing after" },
		{ "https://h/;cafile=/a;cafile=/b", "given twice" },
		{ "https://h/;capath=/a", "unknown setting" },
		{ "https://h/;", "unknown setting" },
		{ ";cafile=/a", "cafile= is for https" },
		{ "", "no place" },
		{ "sftp://h/d/", "need knownhosts" },
		{ "sftp://h/d/;sshkey=/id", "need knownhosts" },
		{ "scp://h/d/;knownhosts=/k", "knownhosts= is for sftp" },
		{ "scp://h/d/", "scp cannot send a dump" },
		{ "ftp://kd:secret@h/d/", "password in the URL" },
		{ "https://kd:s@h:443/d/;cafile=/a", "password in the URL" },
	};
	char long_name[KDUMP_FILE_MAX + 40];
	struct kdump_target t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;

		assert_int_equal(kdump_target_parse(cases[i].text, &t, &why), -EINVAL);
		assert_non_null(why);
		if (!strstr(why, cases[i].why))
			fail_msg("'%s': '%s' does not say '%s'", cases[i].text, why, cases[i].why);
	}
	snprintf(long_name, sizeof(long_name), "https://h/;cafile=/%0*d", KDUMP_FILE_MAX, 0);
	assert_int_equal(kdump_target_parse(long_name, &t, &(const char *){ NULL }), -EINVAL);
}

static void capture_cmdline(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(kdump_load_capture_cmdline("BOOT_IMAGE=/vmlinuz root=UUID=x ro crashkernel=256M "
					            "quiet a=\"b crashkernel=1 c\" initrd=/i.img", "panic=-1",
					            out, sizeof(out)), 0);
	assert_string_equal(out, "root=UUID=x ro quiet a=\"b crashkernel=1 c\" irqpoll nr_cpus=1 "
				 "reset_devices panic=-1");
	assert_int_equal(kdump_load_capture_cmdline("crashkernel=1G-:256M", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "irqpoll nr_cpus=1 reset_devices");
	/* Words as the kernel reads them: a quoted crashkernel= goes too, the
	 * rest is passed on as written (the capture kernel may need it). */
	assert_int_equal(kdump_load_capture_cmdline("\"crashkernel=256M\" rd.iscsi.password=\"a b\"", NULL,
					            out, sizeof(out)), 0);
	assert_string_equal(out, "rd.iscsi.password=\"a b\" irqpoll nr_cpus=1 reset_devices");
	assert_int_equal(kdump_load_capture_cmdline("root=/dev/vda", "", out, 20), -ENAMETOOLONG);
	/* nr_cpus= of --append replaces ours: the kernel would keep the lower. */
	assert_int_equal(kdump_load_capture_cmdline("root=/dev/vda", "nr_cpus=2 panic=-1", out, sizeof(out)), 0);
	assert_string_equal(out, "root=/dev/vda irqpoll reset_devices nr_cpus=2 panic=-1");
	assert_int_equal(kdump_load_capture_cmdline("root=/dev/vda", "\"nr_cpus=4\"", out, sizeof(out)), 0);
	assert_string_equal(out, "root=/dev/vda irqpoll reset_devices \"nr_cpus=4\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conf_full),
		cmocka_unit_test(conf_refused),
		cmocka_unit_test(target_files),
		cmocka_unit_test(target_refused),
		cmocka_unit_test(capture_cmdline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
