/* test_kdump_conf: the capture settings file and the capture kernel's
 * command line derived from the running one. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "gen/kdump_load.h"
#include "kdumpconf.h"

static void conf_full(void **state)
{
	struct kdump_conf c;
	int bad = 0;

	(void)state;
	kdump_conf_init(&c);
	assert_int_equal(c.level, 31);
	assert_int_equal(c.formats, FORMAT_KDUMP);
	assert_int_equal(kdump_conf_parse("# comment\n\ntarget LABEL=a:/var/crash\n"
					  "  target   http://198.51.100.1/dumps/  \n"
					  "level 17\nformat kdump elf\naction poweroff\n"
					  "failure_action shell\ncafile /etc/ca.pem", &c, &bad), 0);
	assert_int_equal(c.ntargets, 2);
	assert_string_equal(c.targets[0], "LABEL=a:/var/crash");
	assert_string_equal(c.targets[1], "http://198.51.100.1/dumps/");
	assert_int_equal(c.level, 17);
	assert_int_equal(c.formats, FORMAT_KDUMP | FORMAT_ELF);
	assert_int_equal(c.action, ACTION_POWEROFF);
	assert_int_equal(c.failure_action, ACTION_SHELL);
	assert_string_equal(c.cafile, "/etc/ca.pem");
}

static void conf_refused(void **state)
{
	const char *bad_texts[] = { "level 32\n", "level -1\n", "level x\n", "format lzo\n",
				    "action halt\n", "target\n", "colour blue\n" };
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

static void capture_cmdline(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(kdump_capture_cmdline("BOOT_IMAGE=/vmlinuz root=UUID=x ro crashkernel=256M "
					       "quiet a=\"b crashkernel=1 c\" initrd=/i.img", "panic=-1",
					       out, sizeof(out)), 0);
	assert_string_equal(out, "root=UUID=x ro quiet a=\"b crashkernel=1 c\" irqpoll nr_cpus=1 "
				 "reset_devices panic=-1");
	assert_int_equal(kdump_capture_cmdline("crashkernel=1G-:256M", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "irqpoll nr_cpus=1 reset_devices");
	assert_int_equal(kdump_capture_cmdline("root=/dev/vda", "", out, 20), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conf_full),
		cmocka_unit_test(conf_refused),
		cmocka_unit_test(capture_cmdline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
