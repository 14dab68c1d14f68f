/* keyscript_env: a keyscript's argv and environment from its crypttab line. */
#include "blockstack/keyscript_env.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/luksopts.h"

/* Where cryptsetup-initramfs finds a check= given by a bare name. */
#define CHECKS_DIR "/lib/cryptsetup/checks"

/* The options cryptsetup-initramfs exports (its crypttab_validate_option)
 * and their variables' names: aliases under the first spelling, '-' as '_'.
 * Others (systemd's, lifeboat's tpm2-*) it leaves out, and so does this. */
static const struct {
	const char *option;
	const char *var;
} known[] = {
	{ "cipher", "cipher" },               { "hash", "hash" },
	{ "size", "size" },                   { "sector-size", "sector_size" },
	{ "offset", "offset" },               { "skip", "skip" },
	{ "keyfile-offset", "keyfile_offset" }, { "keyfile-size", "keyfile_size" },
	{ "keyslot", "keyslot" },             { "key-slot", "keyslot" },
	{ "header", "header" },               { "verify", "verify" },
	{ "readonly", "readonly" },           { "read-only", "readonly" },
	{ "discard", "discard" },             { "plain", "plain" },
	{ "luks", "luks" },                   { "tcrypt", "tcrypt" },
	{ "veracrypt", "veracrypt" },         { "tcrypt-veracrypt", "veracrypt" },
	{ "tcrypthidden", "tcrypthidden" },   { "tcrypt-hidden", "tcrypthidden" },
	{ "bitlk", "bitlk" },                 { "fvault2", "fvault2" },
	{ "swap", "swap" },                   { "tmp", "tmp" },
	{ "check", "check" },                 { "checkargs", "checkargs" },
	{ "tries", "tries" },                 { "initramfs", "initramfs" },
	{ "noearly", "noearly" },             { "noauto", "noauto" },
	{ "loud", "loud" },                   { "quiet", "quiet" },
	{ "keyscript", "keyscript" },         { "same-cpu-crypt", "same_cpu_crypt" },
	{ "submit-from-crypt-cpus", "submit_from_crypt_cpus" },
	{ "no-read-workqueue", "no_read_workqueue" },
	{ "no-write-workqueue", "no_write_workqueue" },
};

static int octal_digit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

void keyscript_decode(const char *in, char *out, size_t size)
{
	size_t n = 0;

	if (!size)
		return;
	while (*in && n + 1 < size) {
		int byte = 0, digits = 0;

		if (in[0] != '\\' || in[1] != '0') {
			out[n++] = *in++;
			continue;
		}
		in += 2;
		for (; digits < 3 && octal_digit(*in) >= 0; digits++)
			byte = byte * 8 + octal_digit(*in++);
		if (byte == 0 || byte > 255)
			break;
		out[n++] = (char)byte;
	}
	out[n] = '\0';
}

/* NAME=VALUE into env's text; a variable set again takes its new value. */
static int env_set(struct keyscript_env *env, const char *name, const char *value)
{
	size_t len = strlen(name);
	char *at = env->text + env->used;
	int n = snprintf(at, sizeof(env->text) - env->used, "%s=%s", name, value);

	if (n < 0 || (size_t)n >= sizeof(env->text) - env->used)
		return -E2BIG;
	env->used += (size_t)n + 1;
	for (size_t i = 0; i < env->n_env; i++)
		if (strncmp(env->envp[i], at, len + 1) == 0) {
			env->envp[i] = at;
			return 0;
		}
	if (env->n_env >= KEYSCRIPT_ENV_MAX)
		return -E2BIG;
	env->envp[env->n_env++] = at;
	env->envp[env->n_env] = NULL;
	return 0;
}

/* CRYPTTAB_X decoded and _CRYPTTAB_X as written. */
static int env_field(struct keyscript_env *env, const char *name, const char *raw,
		     const char *decoded_from)
{
	char var[32], value[CRYPTTAB_FIELD_MAX];
	int r;

	keyscript_decode(decoded_from, value, sizeof(value));
	snprintf(var, sizeof(var), "_%s", name);
	r = env_set(env, var, raw);
	return r < 0 ? r : env_set(env, name, value);
}

/* The value cryptsetup-initramfs gives an option; false: it sets none. */
static bool option_value(const char *option, const char *value, char *out, size_t size)
{
	if (strcmp(option, "tmp") == 0 && !value)
		value = "ext4";     /* its default filesystem for tmp */
	if (strcmp(option, "check") == 0) {
		if (!value)
			return false;   /* CRYPTDISKS_CHECK's, unset in an initramfs */
		if (value[0] != '/') {
			snprintf(out, size, CHECKS_DIR "/%s", value);
			return true;
		}
	}
	if (strcmp(option, "keyscript") == 0 && value)
		return !luks_opts_keyscript_path(value, out, size);
	snprintf(out, size, "%s", value ? value : "yes");
	return true;
}

/* One option of the list ("name" or "name=value", as written). */
static int env_option(struct keyscript_env *env, const char *tok)
{
	char name[64], raw[CRYPTTAB_FIELD_MAX], decoded[CRYPTTAB_FIELD_MAX];
	char value[CRYPTTAB_FIELD_MAX + sizeof(CHECKS_DIR)];
	const char *eq = strchr(tok, '=');
	size_t len = eq ? (size_t)(eq - tok) : strlen(tok);

	if (len >= sizeof(name))
		return 0;
	memcpy(name, tok, len);
	name[len] = '\0';
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		char var[64];

		if (strcmp(name, known[i].option) != 0)
			continue;
		snprintf(raw, sizeof(raw), "%s", eq ? eq + 1 : "");
		keyscript_decode(raw, decoded, sizeof(decoded));
		if (!option_value(known[i].var, eq ? decoded : NULL, value, sizeof(value)))
			return 0;
		snprintf(var, sizeof(var), "CRYPTTAB_OPTION_%s", known[i].var);
		return env_set(env, var, value);
	}
	return 0;
}

static int env_options(struct keyscript_env *env, const char *options)
{
	int r = 0;

	while (r == 0 && *options) {
		size_t len = strcspn(options, ",");
		char tok[CRYPTTAB_FIELD_MAX];

		snprintf(tok, sizeof(tok), "%.*s", (int)len, options);
		if (len)
			r = env_option(env, tok);
		options += len + (options[len] == ',');
	}
	return r;
}

int keyscript_env_make(struct keyscript_env *env, const char *script,
		       const struct keyscript_line *line, unsigned int tried)
{
	char num[16];
	int r;

	memset(env, 0, sizeof(*env));
	keyscript_decode(line->key, env->arg, sizeof(env->arg));
	env->argv[0] = (char *)script;
	env->argv[1] = env->arg;
	snprintf(num, sizeof(num), "%u", tried);
	r = env_set(env, "PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
	if (r == 0)
		r = env_set(env, "HOME", "/");
	if (r == 0)
		r = env_field(env, "CRYPTTAB_NAME", line->name, line->name);
	if (r == 0)
		r = env_field(env, "CRYPTTAB_SOURCE", line->source, line->device);
	if (r == 0)
		r = env_field(env, "CRYPTTAB_KEY", line->key, line->key);
	if (r == 0)
		r = env_field(env, "CRYPTTAB_OPTIONS", line->options, line->options);
	if (r == 0)
		r = env_set(env, "CRYPTTAB_TRIED", num);
	return r == 0 ? env_options(env, line->options) : r;
}
