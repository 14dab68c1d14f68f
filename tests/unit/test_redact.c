/* Unit tests: secrets out of command lines, root paths and logs
 * (common/redact.c), decided on the words the parser reads
 * (common/cmdwords.c, bootlib/cmdline.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "init/bootargs.h"
#include "common/cmdwords.h"
#include "common/redact.h"
#include "init/bootargs.h"
#include "net/iscsi_conf.h"

static void expect_redacted(const char *line, const char *want)
{
	char out[1024];

	assert_true(redact_cmdline(line, out, sizeof(out)));
	assert_string_equal(out, want);
	assert_true(redact_has_secrets(line));
}

static void expect_kept(const char *line)
{
	char out[1024];

	assert_false(redact_cmdline(line, out, sizeof(out)));
	assert_string_equal(out, line);
	assert_false(redact_has_secrets(line));
}

static void plain_words(void **state)
{
	(void)state;
	expect_redacted("root=LABEL=r rd.iscsi.username=alice rd.iscsi.password=s3cret quiet",
			"root=LABEL=r rd.iscsi.username=alice rd.iscsi.password=* quiet");
	expect_redacted("rd.iscsi.in.password=x  netroot=iscsi:u:p@10.0.0.1::::iqn.x\n",
			"rd.iscsi.in.password=*  netroot=iscsi:*@10.0.0.1::::iqn.x\n");
	/* The last '@' ends the credentials, as net/iscsi/rfc4173.c reads them. */
	expect_redacted("root=iscsi:u:p:i:q@@10.0.0.1::::iqn.x\n", "root=iscsi:*@10.0.0.1::::iqn.x\n");
}

/* Quotes are removed by the parser wherever they are: the secret is what
 * it uses, and the quotes around it stay so the line splits as before. */
static void quoted_words(void **state)
{
	(void)state;
	expect_redacted("root=\"iscsi:u:p@10.0.0.1::::iqn.x\" ro",
			"root=\"iscsi:*@10.0.0.1::::iqn.x\" ro");
	expect_redacted("\"root=iscsi:u:p@10.0.0.1::::iqn.x\"", "\"root=iscsi:*@10.0.0.1::::iqn.x\"");
	expect_redacted("quiet \"rd.iscsi.password=x\" ro", "quiet \"rd.iscsi.password=*\" ro");
	expect_redacted("rd.iscsi.pass\"\"word=x", "rd.iscsi.pass\"\"word=*");
	expect_redacted("r\"d.iscsi.in.pass\"word=sec\"ret\" b", "r\"d.iscsi.in.pass\"word=* b");
	expect_redacted("rd.iscsi.password=\"a b\" quiet", "rd.iscsi.password=\"*\" quiet");
	expect_redacted("rd.iscsi.password=a\" \"b quiet", "rd.iscsi.password=* quiet");
	expect_redacted("\"rd.iscsi.password=a b\" rd.iscsi.password=c",
			"\"rd.iscsi.password=*\" rd.iscsi.password=*");
	expect_redacted("x rd.iscsi.password=\"open to the end", "x rd.iscsi.password=\"*");
	expect_redacted("root=iscsi:\"u:p\"@h::::t", "root=iscsi:\"*\"@h::::t");
}

/* What the parser does not read as a secret is left as it is. */
static void not_secrets(void **state)
{
	(void)state;
	expect_kept("root=LABEL=r rd.iscsi.username=alice quiet");
	expect_kept("rd.iscsi.passwordx=1 xroot=iscsi:u:p@h::::t rd.iscsi.password");
	expect_kept("rd.iscsi.password= root=iscsi:@10.0.0.1::::iqn.x");
	expect_kept("root=ISCSI:u:p@h::::t netroot=nfs:u@h:/x");
	expect_kept("  \"a b\"  c\"\"  \"\" \t\n");
	expect_kept("");
}

static void cut_to_size(void **state)
{
	char out[16];

	(void)state;
	redact_cmdline("rd.iscsi.password=longsecret", out, 10);
	assert_string_equal(out, "rd.iscsi.");
	redact_cmdline("a rd.iscsi.password=longsecret", out, sizeof(out));
	assert_string_equal(out, "a rd.iscsi.pass");
}

typedef bool (*path_fn)(const char *value, char *out, size_t size);

static void expect_path(path_fn fn, const char *value, bool found, const char *want)
{
	char out[256];

	assert_int_equal(fn(value, out, sizeof(out)), found);
	assert_string_equal(out, want);
}

/* DHCP's root-path (option 17) and root= values. */
static void root_paths(void **state)
{
	(void)state;
	expect_path(redact_path, "iscsi:alice:Chap-Secret-4173@198.51.100.1::::iqn.2026-02.x:chap",
		    true, "iscsi:*@198.51.100.1::::iqn.2026-02.x:chap");
	expect_path(redact_path, "iscsi:a:b:c:d@[fe80::1]:6:3260:1:iqn.x", true,
		    "iscsi:*@[fe80::1]:6:3260:1:iqn.x");
	expect_path(redact_path, "iscsi:198.51.100.1::::iqn.x", false, "iscsi:198.51.100.1::::iqn.x");
	expect_path(redact_path, "198.51.100.1:/nfs@root", false, "198.51.100.1:/nfs@root");
	expect_path(redact_path, "", false, "");
	expect_path(redact_path_strip, "iscsi:u:p@@h::::t", true, "iscsi:h::::t");
	expect_path(redact_path_strip, "iscsi:h::::t", false, "iscsi:h::::t");
}

/* The kernel's own echo of its command line, and its list of parameters
 * it passes to init, in a log of several lines. */
static void log_lines(void **state)
{
	static const char log[] =
		"<5>[    0.000000] Linux version 6.1.0\n"
		"<5>[    0.000000] Kernel command line: console=ttyS0 root=iscsi:u:Pw-1@h::::t "
		"rd.iscsi.password=Pw-2\n"
		"<5>[    0.1] Unknown kernel command line parameters \"netroot=iscsi:u:Pw-3@h::::t\", "
		"will be passed to user space.\n"
		"<6>[    1.0] lifeboat: starting\0binary\n";
	static const char want[] =
		"<5>[    0.000000] Linux version 6.1.0\n"
		"<5>[    0.000000] Kernel command line: console=ttyS0 root=iscsi:*@h::::t "
		"rd.iscsi.password=*\n"
		"<5>[    0.1] Unknown kernel command line parameters \"netroot=iscsi:*@h::::t\", "
		"will be passed to user space.\n"
		"<6>[    1.0] lifeboat: starting\0binary\n";
	size_t len;
	bool found;
	char *out = redact_lines(log, sizeof(log) - 1, &len, &found);

	(void)state;
	assert_non_null(out);
	assert_true(found);
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(out, want, len);
	free(out);
	out = redact_lines("a\nb", 3, &len, &found);
	assert_false(found);
	assert_int_equal(len, 3);
	assert_memory_equal(out, "a\nb", 3);
	free(out);
}

static void expect_log(const char *line, const char *want)
{
	size_t len;
	bool found;
	char *out = redact_lines(line, strlen(line), &len, &found);

	assert_non_null(out);
	assert_true(found);
	assert_string_equal(out, want);
	free(out);
}

/* The kernel's list of what it passes to init is one quoted word named by
 * its first parameter (GRUB's BOOT_IMAGE=): each parameter in it is
 * redacted as by itself, a value with a blank (listed unquoted) whole. A
 * value that ends the list loses the quote's neighbour too (the word is
 * `VALUE",`): more is redacted, never less. */
static void log_unknown_parameters(void **state)
{
	(void)state;
	expect_log("<5>[    0.052311] Unknown kernel command line parameters \"BOOT_IMAGE=/vmlinuz "
		   "netroot=iscsi:alice:s3cret@192.0.2.1::3260::iqn.2001-04.com.example:t1\", will "
		   "be passed to user space.",
		   "<5>[    0.052311] Unknown kernel command line parameters \"BOOT_IMAGE=/vmlinuz "
		   "netroot=iscsi:*@192.0.2.1::3260::iqn.2001-04.com.example:t1\", will "
		   "be passed to user space.");
	expect_log("p \"single BOOT_IMAGE=/v rd.iscsi.password=Pw 1 x rd.iscsi.username=u "
		   "root=iscsi:u:a b@h::::t rd.iscsi.in.password=Pw-2\", will",
		   "p \"single BOOT_IMAGE=/v rd.iscsi.password=* rd.iscsi.username=u "
		   "root=iscsi:*@h::::t rd.iscsi.in.password=*\" will");
	/* Named by a secret itself: the whole word's secret and the next one's. */
	expect_log("\"netroot=iscsi:u:p@h::::t rd.iscsi.password=Pw-3\"",
		   "\"netroot=iscsi:*@h::::t rd.iscsi.password=*\"");
}

/* The parser reads the redacted line as the original but for the secrets. */
static void parser_agrees(void **state)
{
	static const char line[] = "root=\"iscsi:u:p@10.0.0.1::::iqn.x\" \"rd.iscsi.password=s1\" "
				   "rd.iscsi.in.pass\"\"word=s2 rd.iscsi.username=alice ro";
	struct boot_args a, b;
	char out[512];

	(void)state;
	redact_cmdline(line, out, sizeof(out));
	bootargs_init(&a);
	bootargs_init(&b);
	assert_int_equal(bootargs_parse(line, NULL, &a), 0);
	assert_int_equal(bootargs_parse(out, NULL, &b), 0);
	assert_string_equal(a.root.root, "iscsi:u:p@10.0.0.1::::iqn.x");
	assert_string_equal(a.iscsi.password, "s1");
	assert_string_equal(a.iscsi.in_password, "s2");
	assert_string_equal(b.root.root, "iscsi:*@10.0.0.1::::iqn.x");
	assert_string_equal(b.iscsi.password, "*");
	assert_string_equal(b.iscsi.in_password, "*");
	assert_string_equal(b.iscsi.username, "alice");
	assert_int_equal(b.root.rw, ROOT_RW_RO);
	bootargs_free(&a);
	bootargs_free(&b);
}

/* After the login PID 1 keeps no password (net/iscsi.c calls this). */
static void secrets_forgotten(void **state)
{
	static const char zero[CMDLINE_VALUE_MAX];
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.iscsi.username=u rd.iscsi.password=Pw-2 "
				       "rd.iscsi.in.password=Pw-3", NULL, &a), 0);
	iscsi_conf_forget(&a.iscsi);
	assert_memory_equal(a.iscsi.password, zero, sizeof(zero));
	assert_memory_equal(a.iscsi.in_password, zero, sizeof(zero));
	assert_string_equal(a.iscsi.username, "u");
	bootargs_free(&a);
}

/* What the kernel hands to init's environment, and the real init inherits. */
static void environment_cleaned(void **state)
{
	(void)state;
	assert_int_equal(setenv("netroot", "iscsi:u:Pw-4@h::::t", 1), 0);
	assert_int_equal(setenv("root", "iscsi:a:b@h::::t", 1), 0);
	assert_int_equal(setenv("LIFEBOAT_TEST_KEEP", "iscsi:u:p@h", 1), 0);
	assert_int_equal(setenv("TERM", "linux", 1), 0);
	bootargs_environ_clean();
	assert_null(getenv("netroot"));
	assert_null(getenv("root"));
	assert_string_equal(getenv("LIFEBOAT_TEST_KEEP"), "iscsi:u:p@h");
	assert_string_equal(getenv("TERM"), "linux");
	unsetenv("LIFEBOAT_TEST_KEEP");
}

static void words_and_offsets(void **state)
{
	const char *p = " a\"b c\"d\tx";
	struct cmdword w;
	char *big = malloc(CMDWORD_MAX + 10);

	(void)state;
	assert_true(cmdwords_next(&p, &w));
	assert_string_equal(w.text, "ab cd");
	assert_int_equal(w.raw_len, 7);
	assert_int_equal(cmdwords_raw_offset(&w, 1), 2);
	assert_int_equal(cmdwords_raw_offset(&w, 4), 6);
	assert_true(cmdwords_next(&p, &w));
	assert_string_equal(w.text, "x");
	assert_false(cmdwords_next(&p, &w));
	/* A word longer than the parser reads is cut; its secret goes whole. */
	assert_non_null(big);
	memset(big, 'S', CMDWORD_MAX + 9);
	memcpy(big, "rd.iscsi.password=", 18);
	big[CMDWORD_MAX + 9] = '\0';
	p = big;
	assert_true(cmdwords_next(&p, &w));
	assert_true(w.cut);
	assert_int_equal(w.len, CMDWORD_MAX - 1);
	expect_redacted(big, "rd.iscsi.password=*");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_words),
		cmocka_unit_test(quoted_words),
		cmocka_unit_test(not_secrets),
		cmocka_unit_test(cut_to_size),
		cmocka_unit_test(root_paths),
		cmocka_unit_test(log_lines),
		cmocka_unit_test(log_unknown_parameters),
		cmocka_unit_test(parser_agrees),
		cmocka_unit_test(secrets_forgotten),
		cmocka_unit_test(environment_cleaned),
		cmocka_unit_test(words_and_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
