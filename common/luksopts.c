/* luksopts: crypttab(5) options of a LUKS container, table-driven, and the
 * cryptsetup flags they become. */
#include "common/luksopts.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define STR(x) #x
#define XSTR(x) STR(x)

enum opt_match {
	BARE,     /* "discard" */
	VALUE,    /* "tries=N" */
	EITHER,   /* "check" or "check=PROGRAM" */
	PREFIX,   /* "x-anything" */
};

struct opt {
	const char *name;
	enum opt_match match;
	/* NULL when the option is taken, else why it is left out. */
	const char *(*apply)(struct luks_opts *o, const char *value, unsigned int flag);
	unsigned int flag;
	const char *note;   /* without apply: NULL (accepted), or why it is left out */
};

static const char *set_flag(struct luks_opts *o, const char *value, unsigned int flag)
{
	(void)value;
	o->flags |= flag;
	return NULL;
}

/* Digits only: no sign, no blank, no suffix, no overflow. */
static bool parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (*s < '0' || *s > '9' || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* value as a number no larger than max into *n; else why it is left out. */
static const char *number(const char *value, uint64_t max, const char *too_large, uint64_t *n)
{
	if (!parse_u64(value, n))
		return "not a number, ignored";
	return *n > max ? too_large : NULL;
}

/* systemd reads tries=0 as "ask forever"; an initramfs on a console nobody
 * may watch must end in the rescue shell instead, so a prompt keeps the
 * default (luks_opts_parse notes it). A keyscript runs until rd.timeout=,
 * as cryptsetup-initramfs runs it for ever. */
static const char *set_tries(struct luks_opts *o, const char *value, unsigned int flag)
{
	uint64_t n;

	(void)flag;
	if (!parse_u64(value, &n))
		return "not a number, ignored";
	o->tries_forever = n == 0;
	if (n == 0)
		return NULL;
	o->tries = n > LUKS_OPTS_TRIES_MAX ? LUKS_OPTS_TRIES_MAX : (unsigned int)n;
	return n > LUKS_OPTS_TRIES_MAX ? "more than " XSTR(LUKS_OPTS_TRIES_MAX) "; "
					 XSTR(LUKS_OPTS_TRIES_MAX) " are offered" : NULL;
}

const char *luks_opts_seconds(const char *value, unsigned int *sec)
{
	static const struct { const char *suffix; unsigned int scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "sec", 1 }, { "min", 60 },
	};
	size_t digits = strspn(value, "0123456789");
	char num[21];
	uint64_t n;

	if (digits == 0 || digits >= sizeof(num))
		return "not a number of seconds (30, 30s or 2min), ignored";
	memcpy(num, value, digits);
	num[digits] = '\0';
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(value + digits, units[i].suffix) != 0)
			continue;
		if (!parse_u64(num, &n) || n > LUKS_OPTS_TIMEOUT_MAX / units[i].scale)
			return "longer than a day, ignored";
		*sec = (unsigned int)n * units[i].scale;
		return NULL;
	}
	return "not a number of seconds (30, 30s or 2min), ignored";
}

static const char *set_timeout(struct luks_opts *o, const char *value, unsigned int flag)
{
	(void)flag;
	return luks_opts_seconds(value, &o->timeout_sec);
}

static const char *set_keyfile_offset(struct luks_opts *o, const char *value, unsigned int flag)
{
	uint64_t n;
	const char *why = number(value, INT64_MAX, "too large, ignored", &n);

	(void)flag;
	if (!why)
		o->keyfile_offset = n;
	return why;
}

/* 0 is the whole file, as without the option. */
static const char *set_keyfile_size(struct luks_opts *o, const char *value, unsigned int flag)
{
	uint64_t n;
	const char *why = number(value, LUKS_OPTS_KEYFILE_SIZE_MAX,
				 "more than " XSTR(LUKS_OPTS_KEYFILE_SIZE_MAX) " bytes, ignored", &n);

	(void)flag;
	if (!why)
		o->keyfile_size = (size_t)n;
	return why;
}

const char *luks_opts_keyscript_path(const char *value, char *out, size_t size)
{
	int n;

	if (!*value)
		return "no program named, ignored";
	if (strstr(value, "..") || (value[0] != '/' && strchr(value, '/')))
		return "not a name in " LUKS_OPTS_KEYSCRIPT_DIR " or an absolute path, ignored";
	n = value[0] == '/' ? snprintf(out, size, "%s", value) :
			      snprintf(out, size, LUKS_OPTS_KEYSCRIPT_DIR "/%s", value);
	return n < 0 || (size_t)n >= size ? "too long, ignored" : NULL;
}

/* Debian's: the program whose output is the key. */
static const char *set_keyscript(struct luks_opts *o, const char *value, unsigned int flag)
{
	char path[LUKS_OPTS_KEYSCRIPT_MAX];
	const char *why = luks_opts_keyscript_path(value, path, sizeof(path));

	(void)flag;
	if (!why)
		memcpy(o->keyscript, path, sizeof(path));
	return why;
}

/* The init finds containers by the LUKS header on the device, so one whose
 * header is elsewhere is never offered; the generator refuses such lines. */
static const char *set_header(struct luks_opts *o, const char *value, unsigned int flag)
{
	(void)value;
	o->flags |= flag;
	return "detached LUKS headers are not supported";
}

/* tpm2-device=auto (the kernel's resource manager, /dev/tpmrm0, as
 * without the option) or a device node of its own. */
static const char *set_tpm2_device(struct luks_opts *o, const char *value, unsigned int flag)
{
	(void)flag;
	if (strcmp(value, "auto") == 0) {
		o->tpm2_device[0] = '\0';
		return NULL;
	}
	if (strncmp(value, "/dev/", 5) != 0 || strstr(value, "..") ||
	    strlen(value) >= sizeof(o->tpm2_device))
		return "not auto or a /dev path, ignored";
	snprintf(o->tpm2_device, sizeof(o->tpm2_device), "%s", value);
	return NULL;
}

static const char *set_tpm2_pin(struct luks_opts *o, const char *value, unsigned int flag)
{
	static const char *const yes[] = { "yes", "true", "1", "on" };
	static const char *const no[] = { "no", "false", "0", "off" };

	(void)flag;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcmp(value, yes[i]) == 0)
			o->tpm2_pin = LUKS_TPM2_PIN_YES;
		else if (strcmp(value, no[i]) == 0)
			o->tpm2_pin = LUKS_TPM2_PIN_NO;
		else
			continue;
		return NULL;
	}
	return "not yes or no, ignored";
}

/* systemd's spelling, "7+8"; PCRs are 0 to 23. */
static const char *set_tpm2_pcrs(struct luks_opts *o, const char *value, unsigned int flag)
{
	uint32_t mask = 0;
	char num[8];

	while (*value) {
		size_t len = strcspn(value, "+");
		uint64_t n;

		if (!len || len >= sizeof(num))
			return "not a list of PCR numbers joined by +, ignored";
		memcpy(num, value, len);
		num[len] = '\0';
		if (!parse_u64(num, &n) || n > 23)
			return "not a list of PCR numbers (0 to 23) joined by +, ignored";
		mask |= 1u << n;
		value += len + (value[len] == '+');
	}
	o->tpm2_pcrs = mask;
	o->flags |= flag;
	return NULL;
}

/* Options with nothing to apply: accepted (no note), or another format. */
#define ACCEPT NULL, 0, NULL
#define OTHER_FORMAT NULL, 0, "another format; the container is opened as LUKS if it is one"

static const struct opt opts[] = {
	{ "discard",                BARE,   set_flag, LUKS_OPT_DISCARD, NULL },
	{ "readonly",               BARE,   set_flag, LUKS_OPT_READONLY, NULL },
	{ "read-only",              BARE,   set_flag, LUKS_OPT_READONLY, NULL },
	{ "same-cpu-crypt",         BARE,   set_flag, LUKS_OPT_SAME_CPU, NULL },
	{ "submit-from-crypt-cpus", BARE,   set_flag, LUKS_OPT_SUBMIT_CPUS, NULL },
	{ "no-read-workqueue",      BARE,   set_flag, LUKS_OPT_NO_READ_WQ, NULL },
	{ "no-write-workqueue",     BARE,   set_flag, LUKS_OPT_NO_WRITE_WQ, NULL },
	{ "noauto",                 BARE,   set_flag, LUKS_OPT_NOAUTO, NULL },
	{ "tries",                  VALUE,  set_tries, 0, NULL },
	{ "timeout",                VALUE,  set_timeout, 0, NULL },
	{ "keyfile-offset",         VALUE,  set_keyfile_offset, 0, NULL },
	{ "keyfile-size",           VALUE,  set_keyfile_size, 0, NULL },
	{ "header",                 VALUE,  set_header, LUKS_OPT_HEADER, NULL },
	{ "tpm2-device",            VALUE,  set_tpm2_device, 0, NULL },
	{ "tpm2-pin",               VALUE,  set_tpm2_pin, 0, NULL },
	{ "tpm2-pcrs",              VALUE,  set_tpm2_pcrs, LUKS_OPT_TPM2_PCRS, NULL },
	{ "keyscript",              VALUE,  set_keyscript, 0, NULL },
	/* Accepted, with nothing to do in an initramfs: */
	{ "luks",                   BARE,   ACCEPT },  /* what is opened anyway */
	{ "auto",                   BARE,   ACCEPT },  /* the default */
	/* A container left locked fails nothing by itself: the root's wait decides. */
	{ "nofail",                 BARE,   ACCEPT },
	/* The network comes up before a device on it appears (ip=, iSCSI). */
	{ "_netdev",                BARE,   ACCEPT },
	{ "initramfs",              BARE,   ACCEPT },  /* Debian's mark for lines like these */
	/* They would make a new swap or filesystem on the mapping: never here. */
	{ "swap",                   BARE,   ACCEPT },
	{ "tmp",                    EITHER, ACCEPT },
	/* Key devices are waited for by the device wait, bounded by rd.timeout. */
	{ "keyfile-timeout",        VALUE,  ACCEPT },
	/* Plain dm-crypt's settings: a LUKS header carries its own. */
	{ "cipher",                 VALUE,  ACCEPT },
	{ "hash",                   VALUE,  ACCEPT },
	{ "size",                   VALUE,  ACCEPT },
	{ "offset",                 VALUE,  ACCEPT },
	{ "skip",                   VALUE,  ACCEPT },
	{ "sector-size",            VALUE,  ACCEPT },
	{ "verify",                 BARE,   ACCEPT },
	/* Debian's filesystem check after opening: the root's mount checks. */
	{ "check",                  EITHER, ACCEPT },
	{ "checkargs",              VALUE,  ACCEPT },
	{ "x-",                     PREFIX, ACCEPT },  /* for other programs */
	{ "plain",                  BARE,   OTHER_FORMAT },
	{ "tcrypt",                 BARE,   OTHER_FORMAT },
	{ "tcrypt-",                PREFIX, OTHER_FORMAT },
	{ "veracrypt",              BARE,   OTHER_FORMAT },
	{ "bitlk",                  BARE,   OTHER_FORMAT },
};

/* The value tok gives op ("" for a bare one), or NULL when tok is not op. */
static const char *opt_value(const struct opt *op, const char *tok)
{
	size_t n = strlen(op->name);

	if (strncmp(tok, op->name, n) != 0)
		return NULL;
	switch (op->match) {
	case BARE:
		return tok[n] ? NULL : tok + n;
	case VALUE:
		return tok[n] == '=' ? tok + n + 1 : NULL;
	case EITHER:
		return !tok[n] ? tok + n : tok[n] == '=' ? tok + n + 1 : NULL;
	case PREFIX:
		return tok + n;
	}
	return NULL;
}

static void note_add(struct luks_opts *o, const char *tok, const char *why)
{
	size_t used = strlen(o->notes);

	o->n_notes++;
	if (used + 1 < sizeof(o->notes))
		snprintf(o->notes + used, sizeof(o->notes) - used, "%s%.64s: %s",
			 used ? "; " : "", tok, why);
}

static void opt_apply(struct luks_opts *o, const char *tok)
{
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *value = opt_value(&opts[i], tok);
		const char *why;

		if (!value)
			continue;
		why = opts[i].apply ? opts[i].apply(o, value, opts[i].flag) : opts[i].note;
		if (why)
			note_add(o, tok, why);
		return;
	}
	note_add(o, tok, "unknown, ignored");
}

/* tries=0 where only a keyscript may run for ever. */
static void note_unbounded(struct luks_opts *o)
{
	if (o->tries_forever)
		note_add(o, "tries=0", "unbounded tries are not offered at boot; "
			 XSTR(LUKS_OPTS_TRIES_DEFAULT) " are");
}

void luks_opts_init(struct luks_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tries = LUKS_OPTS_TRIES_DEFAULT;
}

unsigned int luks_opts_parse(const char *text, struct luks_opts *o)
{
	while (text && *text) {
		size_t len = strcspn(text, ",");
		char tok[256];

		if (len >= sizeof(tok))
			note_add(o, text, "too long, ignored");
		else if (len) {
			memcpy(tok, text, len);
			tok[len] = '\0';
			opt_apply(o, tok);
		}
		text += len + (text[len] == ',');
	}
	if (!o->keyscript[0])
		note_unbounded(o);
	return o->n_notes;
}

void luks_opts_refuse_keyscript(struct luks_opts *o, const char *why)
{
	char tok[LUKS_OPTS_KEYSCRIPT_MAX + 16];

	if (!o->keyscript[0])
		return;
	snprintf(tok, sizeof(tok), "keyscript=%s", o->keyscript);
	o->keyscript[0] = '\0';
	note_add(o, tok, why);
	note_unbounded(o);
}

static const struct {
	unsigned int flag;
	const char *arg;    /* cryptsetup's (2.6: cryptsetup --help) */
	const char *word;   /* for the log */
} flag_args[] = {
	{ LUKS_OPT_DISCARD,     "--allow-discards",              "allow-discards" },
	{ LUKS_OPT_READONLY,    "--readonly",                    "readonly" },
	{ LUKS_OPT_SAME_CPU,    "--perf-same_cpu_crypt",         "same-cpu-crypt" },
	{ LUKS_OPT_SUBMIT_CPUS, "--perf-submit_from_crypt_cpus", "submit-from-crypt-cpus" },
	{ LUKS_OPT_NO_READ_WQ,  "--perf-no_read_workqueue",      "no-read-workqueue" },
	{ LUKS_OPT_NO_WRITE_WQ, "--perf-no_write_workqueue",     "no-write-workqueue" },
};

size_t luks_opts_argv(const struct luks_opts *o, const char *argv[], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(flag_args) / sizeof(flag_args[0]) && n < max; i++)
		if (o->flags & flag_args[i].flag)
			argv[n++] = flag_args[i].arg;
	return n;
}

static void word_add(char *buf, size_t size, const char *word)
{
	size_t used = strlen(buf);

	if (used + 1 < size)
		snprintf(buf + used, size - used, "%s%s", used ? ", " : "", word);
}

void luks_opts_describe(const struct luks_opts *o, bool key_file, char *buf, size_t size)
{
	char num[48];

	if (!size)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(flag_args) / sizeof(flag_args[0]); i++)
		if (o->flags & flag_args[i].flag)
			word_add(buf, size, flag_args[i].word);
	if (key_file && o->keyfile_offset) {
		snprintf(num, sizeof(num), "keyfile-offset=%" PRIu64, o->keyfile_offset);
		word_add(buf, size, num);
	}
	if (key_file && o->keyfile_size) {
		snprintf(num, sizeof(num), "keyfile-size=%zu", o->keyfile_size);
		word_add(buf, size, num);
	}
}
