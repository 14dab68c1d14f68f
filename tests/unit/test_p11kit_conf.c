/* Unit tests: p11-kit module files as the PKCS#11 packer reads them
 * (gen/feature/p11kit_conf.c): Debian 12's own (softhsm2, opensc,
 * p11-kit-trust), enable-in/disable-in, and files that name no module
 * or one too long. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gen/feature/p11kit_conf.h"

static int parse(const char *text, struct p11kit_module *m)
{
	return p11kit_conf_parse(text, strlen(text), m);
}

/* The files Debian 12's packages install in /usr/share/p11-kit/modules. */
static void debian_modules(void **state)
{
	struct p11kit_module m;

	(void)state;
	assert_int_equal(parse("# This file describes how to load the pk11 module\n"
			       "# See: http://p11-glue.freedesktop.org/doc/p11-kit/config.html\n\n"
			       "module: /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so\n", &m), 0);
	assert_string_equal(m.module, "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so");
	assert_true(p11kit_conf_wanted(&m));
	assert_int_equal(parse("module: opensc-pkcs11.so", &m), 0);
	assert_string_equal(m.module, "opensc-pkcs11.so");
	assert_true(p11kit_conf_wanted(&m));
	/* The trust anchors' module holds no keys. */
	assert_int_equal(parse("module: p11-kit-trust.so\npriority: 1\ntrust-policy: yes\n"
			       "x-trust-lookup: pkcs11:library-description=PKCS%2311%20Kit\n"
			       "disable-in: p11-kit-proxy\nx-init-reserved:\n", &m), 0);
	assert_true(m.trust_policy);
	assert_false(p11kit_conf_wanted(&m));
}

/* enable-in names the only programs that load it; disable-in those that
 * do not; in either order, comma or blank separated, trimmed. */
static void programs(void **state)
{
	struct p11kit_module m;

	(void)state;
	assert_int_equal(parse("enable-in: firefox, cryptsetup\nmodule: a.so\n", &m), 0);
	assert_true(p11kit_conf_wanted(&m));
	assert_int_equal(parse("module: a.so\nenable-in: firefox,thunderbird\n", &m), 0);
	assert_false(p11kit_conf_wanted(&m));
	assert_int_equal(parse("disable-in: cryptsetup-x cryptsetup\n  module :  a.so  \n", &m), 0);
	assert_string_equal(m.module, "a.so");
	assert_false(p11kit_conf_wanted(&m));
	assert_int_equal(parse("disable-in: cryptsetup\nenable-in: cryptsetup\nmodule: a.so", &m), 0);
	assert_false(p11kit_conf_wanted(&m));
	assert_int_equal(parse("disable-in: cryptsetup-x\nmodule: a.so\r\n", &m), 0);
	assert_true(p11kit_conf_wanted(&m));
}

static void malformed(void **state)
{
	struct p11kit_module m;
	char text[600];

	(void)state;
	assert_int_equal(parse("", &m), -ENOENT);
	assert_int_equal(parse("# module: a.so\nmodule\nmodule:\n", &m), -ENOENT);
	assert_false(p11kit_conf_wanted(&m));
	snprintf(text, sizeof(text), "module: /%0300d.so\n", 1);
	assert_int_equal(parse(text, &m), -ENAMETOOLONG);
	/* A NUL ends the text; bytes past len are not read. */
	assert_int_equal(p11kit_conf_parse("module: a.so\0module: b.so", 25, &m), 0);
	assert_string_equal(m.module, "a.so");
	assert_int_equal(p11kit_conf_parse("module: abc.so", 10, &m), 0);
	assert_string_equal(m.module, "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(debian_modules),
		cmocka_unit_test(programs),
		cmocka_unit_test(malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
