/* Unit tests: crypttab(5) options (common/luksopts.c), the cryptsetup
 * arguments they make, and which list a container gets: rd.luks.options=,
 * crypttab's, rd.luks.crypttab=0, noauto (blockstack/stack_params.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/luks.h"
#include "blockstack/stack_params.h"
#include "tests/unit/stackwords.h"
#include "init/bootargs.h"
#include "common/luksopts.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"
#define U2 "1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d"

static struct luks_opts parsed(const char *text)
{
	struct luks_opts o;

	luks_opts_init(&o);
	luks_opts_parse(text, &o);
	return o;
}

/* The flags of o as cryptsetup gets them, joined by blanks. */
static const char *argv_text(const struct luks_opts *o)
{
	static char text[512];
	const char *argv[LUKS_OPTS_ARGV_MAX];
	size_t n = luks_opts_argv(o, argv, LUKS_OPTS_ARGV_MAX);

	text[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s", i ? " " : "",
			 argv[i]);
	return text;
}

static void no_options(void **state)
{
	struct luks_opts o = parsed("");
	char text[64];

	(void)state;
	assert_int_equal(o.flags, 0);
	assert_int_equal(o.tries, LUKS_OPTS_TRIES_DEFAULT);
	assert_int_equal(o.keyfile_offset, 0);
	assert_int_equal(o.keyfile_size, 0);
	assert_int_equal(o.n_notes, 0);
	assert_string_equal(argv_text(&o), "");
	luks_opts_describe(&o, true, text, sizeof(text));
	assert_string_equal(text, "");
	/* Empty items and a NULL list are nothing either. */
	o = parsed(",,luks,");
	assert_int_equal(o.flags, 0);
	assert_int_equal(o.n_notes, 0);
	assert_int_equal(luks_opts_parse(NULL, &o), 0);
}

/* Each flag option and cryptsetup 2.6's spelling of it. */
static void flags_become_cryptsetup_arguments(void **state)
{
	static const struct { const char *opt, *arg; unsigned int flag; } cases[] = {
		{ "discard",                "--allow-discards",              LUKS_OPT_DISCARD },
		{ "readonly",               "--readonly",                    LUKS_OPT_READONLY },
		{ "read-only",              "--readonly",                    LUKS_OPT_READONLY },
		{ "same-cpu-crypt",         "--perf-same_cpu_crypt",         LUKS_OPT_SAME_CPU },
		{ "submit-from-crypt-cpus", "--perf-submit_from_crypt_cpus", LUKS_OPT_SUBMIT_CPUS },
		{ "no-read-workqueue",      "--perf-no_read_workqueue",      LUKS_OPT_NO_READ_WQ },
		{ "no-write-workqueue",     "--perf-no_write_workqueue",     LUKS_OPT_NO_WRITE_WQ },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct luks_opts o = parsed(cases[i].opt);

		assert_int_equal(o.flags, cases[i].flag);
		assert_int_equal(o.n_notes, 0);
		assert_string_equal(argv_text(&o), cases[i].arg);
	}
}

static void all_flags_in_order(void **state)
{
	struct luks_opts o = parsed("no-write-workqueue,readonly,discard,same-cpu-crypt,"
				    "no-read-workqueue,submit-from-crypt-cpus,discard");
	const char *argv[2];
	char text[300];

	(void)state;
	assert_string_equal(argv_text(&o), "--allow-discards --readonly --perf-same_cpu_crypt "
			    "--perf-submit_from_crypt_cpus --perf-no_read_workqueue "
			    "--perf-no_write_workqueue");
	/* The caller's room bounds what is written. */
	assert_int_equal(luks_opts_argv(&o, argv, 2), 2);
	assert_string_equal(argv[1], "--readonly");
	luks_opts_describe(&o, false, text, sizeof(text));
	assert_string_equal(text, "allow-discards, readonly, same-cpu-crypt, submit-from-crypt-cpus, "
			    "no-read-workqueue, no-write-workqueue");
	luks_opts_describe(&o, false, text, 20);
	assert_string_equal(text, "allow-discards, rea");
}

static void tries(void **state)
{
	struct luks_opts o;

	(void)state;
	assert_int_equal(parsed("tries=1").tries, 1);
	assert_int_equal(parsed("tries=5,tries=2").tries, 2);
	assert_int_equal(parsed("tries=" "10").tries, LUKS_OPTS_TRIES_MAX);
	/* 0 (systemd: ask forever) keeps the default, said in a note. */
	o = parsed("tries=0");
	assert_int_equal(o.tries, LUKS_OPTS_TRIES_DEFAULT);
	assert_int_equal(o.n_notes, 1);
	assert_string_equal(o.notes, "tries=0: unbounded tries are not offered at boot; 3 are");
	/* More than the most is the most. */
	o = parsed("tries=11");
	assert_int_equal(o.tries, LUKS_OPTS_TRIES_MAX);
	assert_string_equal(o.notes, "tries=11: more than 10; 10 are offered");
	o = parsed("tries=99999999999999999999999");
	assert_int_equal(o.tries, LUKS_OPTS_TRIES_DEFAULT);
	assert_string_equal(o.notes, "tries=99999999999999999999999: not a number, ignored");
}

/* Debian's keyscript=: a bare name is in /lib/cryptsetup/scripts, an
 * absolute path stays; anything else is noted and left out. tries=0 runs a
 * keyscript until it opens the container (rd.timeout= bounds it), without
 * a note; the passphrase prompt keeps its 3 tries. */
static void keyscript(void **state)
{
	static const char *const bad[] = {
		"keyscript=", "keyscript=sub/k", "keyscript=/lib/../k", "keyscript=..",
		"keyscript=/" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	struct luks_opts o = parsed("luks,keyscript=decrypt_keyctl");

	(void)state;
	assert_int_equal(o.n_notes, 0);
	assert_string_equal(o.keyscript, "/lib/cryptsetup/scripts/decrypt_keyctl");
	o = parsed("keyscript=/usr/local/sbin/k,tries=0");
	assert_int_equal(o.n_notes, 0);
	assert_string_equal(o.keyscript, "/usr/local/sbin/k");
	assert_true(o.tries_forever);
	assert_int_equal(o.tries, LUKS_OPTS_TRIES_DEFAULT);
	o = parsed("tries=0,keyscript=passdev,tries=2");
	assert_false(o.tries_forever);
	assert_int_equal(o.tries, 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = parsed(bad[i]);
		assert_int_equal(o.n_notes, 1);
		assert_string_equal(o.keyscript, "");
	}
	assert_string_equal(parsed("keyscript=../x").notes, "keyscript=../x: not a name in "
			    "/lib/cryptsetup/scripts or an absolute path, ignored");
	/* Where only crypttab may name one: dropped and said, with its tries=0. */
	o = parsed("keyscript=passdev,tries=0");
	luks_opts_refuse_keyscript(&o, "crypttab only");
	assert_string_equal(o.keyscript, "");
	assert_string_equal(o.notes, "keyscript=/lib/cryptsetup/scripts/passdev: crypttab only; "
			    "tries=0: unbounded tries are not offered at boot; 3 are");
	o = parsed("discard");
	luks_opts_refuse_keyscript(&o, "crypttab only");
	assert_int_equal(o.n_notes, 0);
}

static void malformed_numbers(void **state)
{
	static const char *const bad[] = {
		"tries=abc", "tries=", "tries=-1", "tries=+2", "tries= 2", "tries=2x", "tries=0x10",
		"keyfile-size=-1", "keyfile-size=", "keyfile-size=1k", "keyfile-size=8193",
		"keyfile-size=18446744073709551616", "keyfile-offset=-1", "keyfile-offset=abc",
		"keyfile-offset=9223372036854775808", "keyfile-offset=18446744073709551616",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct luks_opts o = parsed(bad[i]);

		assert_int_equal(o.n_notes, 1);
		assert_int_equal(o.tries, LUKS_OPTS_TRIES_DEFAULT);
		assert_int_equal(o.keyfile_offset, 0);
		assert_int_equal(o.keyfile_size, 0);
		assert_non_null(strstr(o.notes, bad[i]));
	}
}

static void key_file_window(void **state)
{
	struct luks_opts o = parsed("keyfile-offset=9223372036854775807,keyfile-size=8192");
	char text[128];

	(void)state;
	assert_int_equal(o.n_notes, 0);
	assert_true(o.keyfile_offset == 9223372036854775807ULL);
	assert_int_equal(o.keyfile_size, LUKS_OPTS_KEYFILE_SIZE_MAX);
	/* Not cryptsetup's business: the init reads those bytes itself. */
	assert_string_equal(argv_text(&o), "");
	luks_opts_describe(&o, true, text, sizeof(text));
	assert_string_equal(text, "keyfile-offset=9223372036854775807, keyfile-size=8192");
	luks_opts_describe(&o, false, text, sizeof(text));
	assert_string_equal(text, "");
	assert_int_equal(parsed("keyfile-size=0").keyfile_size, 0);
	assert_int_equal(parsed("keyfile-size=0").n_notes, 0);
}

/* timeout= in systemd's spellings; what is not a time is noted and left. */
static void timeout(void **state)
{
	static const char *const bad[] = { "timeout=", "timeout=s", "timeout=-1", "timeout=1h",
					   "timeout=1.5", "timeout=30 s", "timeout=86401",
					   "timeout=1441min", "timeout=99999999999999999999999" };
	struct luks_opts o;

	(void)state;
	assert_int_equal(parsed("").timeout_sec, 0);
	assert_int_equal(parsed("timeout=30").timeout_sec, 30);
	assert_int_equal(parsed("timeout=30s").timeout_sec, 30);
	assert_int_equal(parsed("timeout=45sec").timeout_sec, 45);
	assert_int_equal(parsed("timeout=2min").timeout_sec, 120);
	assert_int_equal(parsed("timeout=0").timeout_sec, 0);
	assert_int_equal(parsed("timeout=86400").timeout_sec, 86400);
	assert_int_equal(parsed("timeout=30").n_notes, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = parsed(bad[i]);
		assert_int_equal(o.timeout_sec, 0);
		assert_int_equal(o.n_notes, 1);
	}
}

/* Accepted, with nothing to do at boot: no flag, no note. */
static void accepted_and_ignored(void **state)
{
	struct luks_opts o = parsed("luks,auto,nofail,_netdev,initramfs,swap,tmp,tmp=ext4,"
				    "keyfile-timeout=10s,cipher=aes-xts-plain64,"
				    "hash=sha256,size=256,offset=0,skip=0,sector-size=4096,"
				    "verify,check,check=ext4,checkargs=-f,x-systemd.device-timeout=0,"
				    "x-initrd.attach");

	(void)state;
	assert_int_equal(o.flags, 0);
	assert_int_equal(o.n_notes, 0);
	assert_string_equal(o.notes, "");
}

/* Other formats and unknown options: noted once each, the rest applies. */
static void noted_options(void **state)
{
	struct luks_opts o = parsed("plain,discard,tcrypt,tcrypt-hidden,veracrypt,bitlk,frob,"
				    "discard=1,header=/boot/h.img");

	(void)state;
	assert_int_equal(o.flags, LUKS_OPT_DISCARD | LUKS_OPT_HEADER);
	assert_int_equal(o.n_notes, 8);
	assert_non_null(strstr(o.notes, "plain: another format; the container is opened as "
			       "LUKS if it is one; tcrypt: another format"));
	assert_non_null(strstr(o.notes, "bitlk: another format"));
	assert_non_null(strstr(o.notes, "; frob: unknown, ignored; discard=1: unknown, ignored; "
			       "header=/boot/h.img: detached LUKS headers are not supported"));
	assert_string_equal(argv_text(&o), "--allow-discards");
}

/* systemd's TPM2 options (crypttab, rd.luks.options=): the device, the
 * PIN and the PCRs a token must be bound to; malformed values are noted
 * and leave the defaults. */
static void tpm2_options(void **state)
{
	struct luks_opts o = parsed("tpm2-device=/dev/tpmrm1,tpm2-pin=yes,tpm2-pcrs=0+7+23");

	(void)state;
	assert_int_equal(o.n_notes, 0);
	assert_string_equal(o.tpm2_device, "/dev/tpmrm1");
	assert_int_equal(o.tpm2_pin, LUKS_TPM2_PIN_YES);
	assert_true(o.flags & LUKS_OPT_TPM2_PCRS);
	assert_int_equal(o.tpm2_pcrs, 1u | 1u << 7 | 1u << 23);
	assert_string_equal(argv_text(&o), "");
	o = parsed("tpm2-device=auto,tpm2-pin=false,tpm2-pcrs=");
	assert_int_equal(o.n_notes, 0);
	assert_string_equal(o.tpm2_device, "");
	assert_int_equal(o.tpm2_pin, LUKS_TPM2_PIN_NO);
	assert_true(o.flags & LUKS_OPT_TPM2_PCRS);
	assert_int_equal(o.tpm2_pcrs, 0);
	o = parsed("tpm2-device=tpmrm0,tpm2-device=/dev/../etc/x,tpm2-pin=maybe,tpm2-pcrs=7+24,"
		   "tpm2-pcrs=7++8,tpm2-pcrs=x");
	assert_int_equal(o.n_notes, 6);
	assert_string_equal(o.tpm2_device, "");
	assert_int_equal(o.tpm2_pin, LUKS_TPM2_PIN_TOKEN);
	assert_false(o.flags & LUKS_OPT_TPM2_PCRS);
	assert_non_null(strstr(o.notes, "tpm2-device=tpmrm0: not auto or a /dev path, ignored"));
	assert_non_null(strstr(o.notes, "tpm2-pin=maybe: not yes or no, ignored"));
	assert_non_null(strstr(o.notes, "tpm2-pcrs=7+24: not a list of PCR numbers (0 to 23)"));
}

/* Notes stay within their buffer; their count goes on. */
static void notes_are_bounded(void **state)
{
	char text[4096] = "", tok[300];
	struct luks_opts o;

	(void)state;
	for (int i = 0; i < 100; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "unknown%d,", i);
	o = parsed(text);
	assert_int_equal(o.n_notes, 100);
	assert_true(strlen(o.notes) < sizeof(o.notes));
	memset(tok, 'a', sizeof(tok) - 1);
	tok[sizeof(tok) - 1] = '\0';
	o = parsed(tok);
	assert_int_equal(o.n_notes, 1);
	assert_non_null(strstr(o.notes, ": too long, ignored"));
}

/* Parse a command line the way the init does and apply its stack words. */
static void cmdline(const char *line, struct stack_params *p)
{
	struct boot_args args;

	bootargs_init(&args);
	assert_int_equal(bootargs_parse(line, NULL, &args), 0);
	*p = args.stacks;
	bootargs_free(&args);
}

static void crypttab_line(struct stack_params *p, const char *line)
{
	struct crypttab_entry e;

	assert_int_equal(crypttab_parse_line(line, &e), 1);
	assert_int_equal(stack_params_add_crypttab(p, &e), 0);
}

/* rd.luks.options=UUID=, else crypttab's field, else rd.luks.options=;
 * the list that wins is used whole. */
static void precedence(void **state)
{
	struct stack_params p;

	(void)state;
	cmdline("rd.luks.options=discard rd.luks.options=" U1 "=readonly,tries=1", &p);
	assert_int_equal(p.n_uuid_opts, 1);
	crypttab_line(&p, "a UUID=" U1 " none discard,tries=5");
	crypttab_line(&p, "b UUID=" U2 " none same-cpu-crypt");
	crypttab_line(&p, "c UUID=1b2c3d4e-0005-4a5b-8c6d-7e8f9a0b1c2d none");
	assert_int_equal(stack_params_luks_opts(&p, U1)->flags, LUKS_OPT_READONLY);
	assert_int_equal(stack_params_luks_opts(&p, U1)->tries, 1);
	assert_int_equal(stack_params_luks_opts(&p, U2)->flags, LUKS_OPT_SAME_CPU);
	/* A line without options, or no line: rd.luks.options= for all. */
	assert_int_equal(stack_params_luks_opts(&p, "1B2C3D4E00054A5B8C6D7E8F9A0B1C2D")->flags,
			 LUKS_OPT_DISCARD);
	assert_int_equal(stack_params_luks_opts(&p, "feedfeed-0000-4a5b-8c6d-7e8f9a0b1c2d")->flags,
			 LUKS_OPT_DISCARD);
	/* Without any: nothing, the default tries. */
	stack_params_init(&p);
	assert_int_equal(stack_params_luks_opts(&p, U1)->flags, 0);
	assert_int_equal(stack_params_luks_opts(&p, U1)->tries, LUKS_OPTS_TRIES_DEFAULT);
}

/* rd.luks.timeout= is every container's prompt bound; a container's own
 * timeout= wins; a malformed value is refused. */
static void timeout_parameter(void **state)
{
	struct stack_params p;

	(void)state;
	cmdline("", &p);
	assert_int_equal(stack_params_luks_timeout(&p, U1), 0);
	cmdline("rd.luks.timeout=20 rd.luks.options=" U2 "=timeout=1min", &p);
	assert_int_equal(stack_params_luks_timeout(&p, U1), 20);
	assert_int_equal(stack_params_luks_timeout(&p, U2), 60);
	crypttab_line(&p, "data UUID=" U1 " none timeout=5");
	assert_int_equal(stack_params_luks_timeout(&p, U1), 5);
	stack_params_init(&p);
	assert_int_equal(stack_params_apply(&p, "rd.luks.timeout=soon"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.luks.timeout"), -EINVAL);
	assert_int_equal(p.luks_timeout_sec, 0);
}

/* A prompt waits for the shorter of the container's bound and a capture
 * kernel's (luks_bound_prompts); either alone, or none. */
static void prompt_bound(void **state)
{
	struct luks_opts o;
	struct luks_container c = { "vda", U1, "r", &o, 0, false };

	(void)state;
	luks_opts_init(&o);
	assert_int_equal(luks_prompt_sec(&c), 0);
	assert_true(luks_prompt_deadline(&c) == 0);
	c.timeout_sec = 10;
	assert_int_equal(luks_prompt_sec(&c), 10);
	assert_true(luks_prompt_deadline(&c) > 0);
	luks_bound_prompts(30);
	assert_int_equal(luks_prompt_sec(&c), 10);
	c.timeout_sec = 60;
	assert_int_equal(luks_prompt_sec(&c), 30);
	c.timeout_sec = 0;
	assert_int_equal(luks_prompt_sec(&c), 30);
	luks_bound_prompts(0);
}

/* The UUID of rd.luks.options=UUID=OPTS in any of its spellings; the
 * later one for a container wins; a global list is not a UUID's. */
static void options_parameter_forms(void **state)
{
	struct stack_params p;

	(void)state;
	cmdline("rd.luks.options=luks-" U1 "=discard rd.luks.options=1B2C3D4E00014A5B8C6D7E8F9A0B1C2D=readonly "
		"rd.luks.options=tries=2 rd.luks.options=tries=4,no-read-workqueue", &p);
	assert_int_equal(p.n_uuid_opts, 2);
	assert_int_equal(stack_params_luks_opts(&p, U1)->flags, LUKS_OPT_READONLY);
	assert_true(p.has_all_opts);
	assert_int_equal(p.all_opts.tries, 4);
	assert_int_equal(stack_params_luks_opts(&p, U2)->flags, LUKS_OPT_NO_READ_WQ);
	/* Not 32 hex digits before '=': options for all. */
	cmdline("rd.luks.options=deadbeef=1", &p);
	assert_int_equal(p.n_uuid_opts, 0);
	assert_int_equal(p.all_opts.n_notes, 1);
	/* rd.luks.options alone is malformed; an empty list is no option. */
	stack_params_init(&p);
	assert_int_equal(stack_params_apply(&p, "rd.luks.options"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.luks.options="), 0);
	assert_int_equal(p.all_opts.flags, 0);
	for (size_t i = 0; i < STACK_LIST_MAX; i++)
		assert_int_equal(stack_params_apply(&p, "rd.luks.options=" U1 "=discard"), 0);
	assert_int_equal(stack_params_apply(&p, "rd.luks.options=" U2 "=discard"), -E2BIG);
}

static void crypttab_off(void **state)
{
	struct stack_params p;
	char name[STACK_NAME_MAX];

	(void)state;
	cmdline("rd.luks.crypttab=0", &p);
	assert_false(p.crypttab);
	crypttab_line(&p, "lbroot UUID=" U1 " /etc/k.key discard");
	assert_int_equal(p.n_tab, 0);
	assert_int_equal(p.n_keys, 0);
	assert_true(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_string_equal(name, "luks-" U1);
	assert_int_equal(stack_params_luks_opts(&p, U1)->flags, 0);
	cmdline("rd.luks.crypttab=1", &p);
	assert_true(p.crypttab);
}

/* A crypttab line with a keyscript: its key field is the script's
 * argument, kept as written, never a key file; rd.luks.options= cannot
 * name a keyscript (its argument is a crypttab line's). */
static void crypttab_keyscript(void **state)
{
	struct stack_params p;
	const struct luks_entry *t;

	(void)state;
	cmdline("rd.luks.options=" U2 "=keyscript=passdev,discard", &p);
	crypttab_line(&p, "lbroot UUID=" U1 " /dev/disk/by-label/K:/k.key luks,keyscript=passdev");
	crypttab_line(&p, "lbdata UUID=" U2 " /etc/data.key luks,keyscript=/sbin/k");
	assert_int_equal(p.n_keys, 0);
	t = stack_params_crypttab_line(&p, U1);
	assert_non_null(t);
	assert_string_equal(t->key, "/dev/disk/by-label/K:/k.key");
	assert_string_equal(t->options, "luks,keyscript=passdev");
	assert_string_equal(stack_params_luks_opts(&p, U1)->keyscript,
			    "/lib/cryptsetup/scripts/passdev");
	/* U2's own rd.luks.options= wins whole: no keyscript, said why. */
	assert_string_equal(stack_params_luks_opts(&p, U2)->keyscript, "");
	assert_string_equal(stack_params_luks_opts(&p, U2)->notes,
			    "keyscript=/lib/cryptsetup/scripts/passdev: only a crypttab line names "
			    "a keyscript, ignored");
	assert_null(stack_params_crypttab_line(&p, "1b2c3d4e-00ff-4a5b-8c6d-7e8f9a0b1c2d"));
	cmdline("rd.luks.options=keyscript=/sbin/k", &p);
	assert_string_equal(p.all_opts.keyscript, "");
	assert_int_equal(p.all_opts.n_notes, 1);
	/* Without a keyscript the key field is a key file, as before. */
	crypttab_line(&p, "lbroot UUID=" U1 " /etc/root.key luks");
	assert_int_equal(p.n_keys, 1);
}

/* noauto: only when the command line names the container. */
static void noauto(void **state)
{
	struct stack_params p;
	char name[STACK_NAME_MAX];

	(void)state;
	cmdline("", &p);
	crypttab_line(&p, "data UUID=" U1 " none noauto");
	crypttab_line(&p, "root UUID=" U2 " none discard");
	assert_false(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_true(stack_params_luks_wanted(&p, U2, name, sizeof(name)));
	cmdline("rd.luks.uuid=" U1, &p);
	crypttab_line(&p, "data UUID=" U1 " none noauto");
	assert_true(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_string_equal(name, "data");
	/* rd.luks.options=UUID= without noauto wins over crypttab's. */
	cmdline("rd.luks.options=" U1 "=discard", &p);
	crypttab_line(&p, "data UUID=" U1 " none noauto");
	assert_true(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_options),
		cmocka_unit_test(flags_become_cryptsetup_arguments),
		cmocka_unit_test(all_flags_in_order),
		cmocka_unit_test(tries),
		cmocka_unit_test(keyscript),
		cmocka_unit_test(malformed_numbers),
		cmocka_unit_test(key_file_window),
		cmocka_unit_test(timeout),
		cmocka_unit_test(timeout_parameter),
		cmocka_unit_test(prompt_bound),
		cmocka_unit_test(accepted_and_ignored),
		cmocka_unit_test(noted_options),
		cmocka_unit_test(tpm2_options),
		cmocka_unit_test(notes_are_bounded),
		cmocka_unit_test(precedence),
		cmocka_unit_test(options_parameter_forms),
		cmocka_unit_test(crypttab_off),
		cmocka_unit_test(noauto),
		cmocka_unit_test(crypttab_keyscript),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
