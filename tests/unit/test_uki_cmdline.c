/* Tests for gen/uki/uki_cmdline.c (the image's command line and the rule
 * that a signed image has one) and uki_sign.c's encrypted-key check. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/uki/uki_cmdline.h"
#include "gen/uki/uki_sign.h"
#include "tests/unit/image_fixture.h"

static char *dir;

static char *file_at(const char *name, const char *text)
{
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	if (text) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static int setup(void **state)
{
	(void)state;
	dir = fixture_tmpdir();
	return dir ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fixture_rmrf(dir);
	return 0;
}

/* --cmdline wins over the files, and ends up on one line without the blanks at its end. */
static void test_given_wins(void **state)
{
	char *cmdline = file_at("cmdline", "root=LABEL=file\n");
	const char *const files[] = { cmdline, NULL };
	char *line;

	(void)state;
	assert_int_equal(uki_cmdline_decide("root=LABEL=given\tro  \n", files, true, false, &line), 0);
	assert_string_equal(line, "root=LABEL=given ro");
	free(line);
	free(cmdline);
}

/* The first file that exists is read; its line ends become blanks. */
static void test_first_file(void **state)
{
	char *missing = file_at("missing", NULL), *second = file_at("second", "root=UUID=1\nquiet\n");
	const char *const files[] = { missing, second, NULL };
	char *line;

	(void)state;
	assert_int_equal(uki_cmdline_decide(NULL, files, false, false, &line), 0);
	assert_string_equal(line, "root=UUID=1 quiet");
	free(line);
	free(missing);
	free(second);
}

/* Signed and nothing to embed: refused, whether the command line is
 * missing, given empty or only blanks in the file. */
static void test_signed_needs_cmdline(void **state)
{
	char *missing = file_at("missing", NULL), *blank = file_at("blank", " \n\n");
	const char *const none[] = { missing, NULL };
	const char *const blank_files[] = { blank, NULL };
	char *line = (char *)"x";

	(void)state;
	assert_int_equal(uki_cmdline_decide(NULL, none, true, false, &line), -EINVAL);
	assert_null(line);
	assert_int_equal(uki_cmdline_decide("  ", none, true, false, &line), -EINVAL);
	assert_int_equal(uki_cmdline_decide(NULL, blank_files, true, false, &line), -EINVAL);
	/* Unsigned, the same image is made (with a warning) and has no command line. */
	assert_int_equal(uki_cmdline_decide(NULL, none, false, false, &line), 0);
	assert_null(line);
	free(missing);
	free(blank);
}

/* --uki-loader-cmdline: no command line even when a file has one; not
 * together with --cmdline. */
static void test_loader_cmdline(void **state)
{
	char *cmdline = file_at("cmdline", "root=LABEL=file\n");
	const char *const files[] = { cmdline, NULL };
	char *line = (char *)"x";

	(void)state;
	assert_int_equal(uki_cmdline_decide(NULL, files, true, true, &line), 0);
	assert_null(line);
	assert_int_equal(uki_cmdline_decide("root=LABEL=r", files, true, true, &line), -EINVAL);
	free(cmdline);
}

/* Both PEM forms of an encrypted key are told; a plain key and a missing file are not. */
static void test_key_encrypted(void **state)
{
	char *pkcs8 = file_at("pkcs8", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n-----END ENCRYPTED PRIVATE KEY-----\n");
	char *legacy = file_at("legacy", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
				 "DEK-Info: AES-256-CBC,00\n\nMIIE\n-----END RSA PRIVATE KEY-----\n");
	char *plain = file_at("plain", "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n");
	char *missing = file_at("nokey", NULL);

	(void)state;
	assert_true(uki_sign_key_encrypted(pkcs8));
	assert_true(uki_sign_key_encrypted(legacy));
	assert_false(uki_sign_key_encrypted(plain));
	assert_false(uki_sign_key_encrypted(missing));
	free(pkcs8);
	free(legacy);
	free(plain);
	free(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_given_wins),
		cmocka_unit_test(test_first_file),
		cmocka_unit_test(test_signed_needs_cmdline),
		cmocka_unit_test(test_loader_cmdline),
		cmocka_unit_test(test_key_encrypted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
