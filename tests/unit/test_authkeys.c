/* Unit tests: gen/host/authkeys.c, the check of authorized_keys lines
 * before they go into an image built with --ssh: what dropbear accepts,
 * what it would refuse (unknown options: from=), and malformed lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "gen/opts/build_opts.h"
#include "gen/host/authkeys.h"

/* A real Ed25519 public key (made with dropbearkey for these tests). */
#define ED25519 "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGYBmptfTImQ4VAiR4+kKbtd7TDNBFbeLpt4SReZlCJb"

static enum authkey_verdict check(const char *line, struct authkey_check *ck)
{
	authkeys_check_line(line, strlen(line), ck);
	return ck->verdict;
}

static void plain_keys_are_usable(void **state)
{
	struct authkey_check ck;

	(void)state;
	assert_int_equal(check(ED25519, &ck), AUTHKEY_USABLE);
	assert_string_equal(ck.type, "ssh-ed25519");
	assert_int_equal(check(ED25519 " someone@laptop", &ck), AUTHKEY_USABLE);
	assert_int_equal(check("  \t" ED25519 "  a comment with spaces", &ck), AUTHKEY_USABLE);
}

static void comments_and_blanks_are_empty(void **state)
{
	struct authkey_check ck;

	(void)state;
	assert_int_equal(check("", &ck), AUTHKEY_EMPTY);
	assert_int_equal(check("   ", &ck), AUTHKEY_EMPTY);
	assert_int_equal(check("# " ED25519, &ck), AUTHKEY_EMPTY);
	assert_int_equal(check("\r", &ck), AUTHKEY_EMPTY);
}

/* dropbear's options, with quoted values holding blanks and commas. */
static void known_options_are_usable(void **state)
{
	struct authkey_check ck;

	(void)state;
	assert_int_equal(check("no-pty " ED25519, &ck), AUTHKEY_USABLE);
	assert_int_equal(check("restrict,command=\"unlock\" " ED25519, &ck), AUTHKEY_USABLE);
	assert_int_equal(check("command=\"echo a, b \\\"c\\\"\",no-port-forwarding " ED25519, &ck),
			 AUTHKEY_USABLE);
	assert_int_equal(check("permitopen=\"10.0.0.1:22\",no-X11-forwarding,no-agent-forwarding "
			       ED25519, &ck), AUTHKEY_USABLE);
	assert_int_equal(check("NO-PTY " ED25519, &ck), AUTHKEY_USABLE);
}

/* dropbear refuses a key with an option it does not know: reported. */
static void unknown_options_are_named(void **state)
{
	struct authkey_check ck;

	(void)state;
	assert_int_equal(check("from=\"198.51.100.*\" " ED25519, &ck), AUTHKEY_UNKNOWN_OPTION);
	assert_string_equal(ck.option, "from");
	assert_int_equal(check("no-pty,environment=\"A=b\" " ED25519, &ck), AUTHKEY_UNKNOWN_OPTION);
	assert_string_equal(ck.option, "environment");
	assert_int_equal(check("cert-authority " ED25519, &ck), AUTHKEY_UNKNOWN_OPTION);
}

static void malformed_options_are_refused(void **state)
{
	struct authkey_check ck;

	(void)state;
	assert_int_equal(check("command=\"unclosed " ED25519, &ck), AUTHKEY_BAD_OPTIONS);
	assert_int_equal(check("no-pty,,no-pty " ED25519, &ck), AUTHKEY_BAD_OPTIONS);
	assert_int_equal(check("no-pty, " ED25519, &ck), AUTHKEY_BAD_OPTIONS);
	assert_int_equal(check("no-pty,", &ck), AUTHKEY_BAD_OPTIONS);
	assert_int_equal(check("=x " ED25519, &ck), AUTHKEY_BAD_OPTIONS);
}

static void bad_types_and_keys_are_refused(void **state)
{
	struct authkey_check ck;

	(void)state;
	/* Options alone, or a type dropbear does not know. */
	assert_int_equal(check("no-pty", &ck), AUTHKEY_BAD_TYPE);
	assert_int_equal(check("ssh-dss AAAAB3NzaC1kc3MAAACBAP", &ck), AUTHKEY_UNKNOWN_OPTION);
	assert_int_equal(check("no-pty ssh-foo AAAA", &ck), AUTHKEY_BAD_TYPE);
	/* The blob is no base64, is cut, or names another type. */
	assert_int_equal(check("ssh-ed25519 !!!!", &ck), AUTHKEY_BAD_KEY);
	assert_int_equal(check("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGYBmptfTImQ4VAiR4", &ck),
			 AUTHKEY_BAD_KEY);
	assert_int_equal(check("ssh-ed25519", &ck), AUTHKEY_BAD_KEY);
	assert_int_equal(check("ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIGYBmptfTImQ4VAiR4+kKbtd7TDNBFbeLpt4SReZlCJb",
			       &ck), AUTHKEY_BAD_KEY);
	assert_string_equal(ck.type, "ssh-rsa");
}

/* A NUL inside the line: not text. */
static void nul_bytes_are_refused(void **state)
{
	static const char line[] = ED25519 "\0trailing";
	struct authkey_check ck;

	(void)state;
	authkeys_check_line(line, sizeof(line) - 1, &ck);
	assert_int_equal(ck.verdict, AUTHKEY_BAD_KEY);
}

/* --ssh, --ssh-port and the config file's ssh = yes. */
static void ssh_options_parse(void **state)
{
	struct build_opts o;

	(void)state;
	build_opts_init(&o);
	assert_int_equal(build_opts_set(&o, "ssh", "yes", "test"), 0);
	assert_true(o.ssh);
	assert_int_equal(build_opts_set(&o, "ssh-port", "2222", "test"), 0);
	assert_int_equal(o.ssh_port, 2222);
	assert_int_equal(build_opts_set(&o, "ssh_port", "0", "test"), -EINVAL);
	assert_int_equal(build_opts_set(&o, "ssh-port", "65536", "test"), -EINVAL);
	assert_int_equal(build_opts_set(&o, "ssh-port", "-22", "test"), -EINVAL);
	assert_int_equal(build_opts_set(&o, "ssh-port", "22x", "test"), -EINVAL);
	assert_int_equal(o.ssh_port, 2222);
	assert_int_equal(build_opts_set(&o, "ssh-authorized-keys", "/k", "test"), 0);
	assert_string_equal(o.ssh_authorized_keys, "/k");
	build_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_keys_are_usable),
		cmocka_unit_test(comments_and_blanks_are_empty),
		cmocka_unit_test(known_options_are_usable),
		cmocka_unit_test(unknown_options_are_named),
		cmocka_unit_test(malformed_options_are_refused),
		cmocka_unit_test(bad_types_and_keys_are_refused),
		cmocka_unit_test(nul_bytes_are_refused),
		cmocka_unit_test(ssh_options_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
