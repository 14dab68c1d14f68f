/* lukstoken: a LUKS2 token of systemd-cryptenroll's, tried once per
 * container and kind through cryptsetup and systemd's token plugin,
 * bounded in time; a PIN is asked on the consoles like a passphrase. */
#include "blockstack/lukstoken.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/luksfido2.h"
#include "blockstack/lukspkcs11.h"
#include "blockstack/lukstpm2.h"
#include "bootlib/console.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/run.h"
#include "common/layout.h"

#define TRIED_MAX 64

const struct lukstoken_kind *const lukstoken_kinds[] = { &lukstpm2_kind, &luksfido2_kind,
							&lukspkcs11_kind, NULL };

/* "TYPE UUID" of each attempt made. */
static char tried[TRIED_MAX][96];
static size_t n_tried;

static bool was_tried(const char *type, const char *uuid)
{
	char key[sizeof(tried[0])];

	snprintf(key, sizeof(key), "%s %s", type, uuid);
	for (size_t i = 0; i < n_tried; i++)
		if (strcmp(tried[i], key) == 0)
			return true;
	return false;
}

static void mark_tried(const char *type, const char *uuid)
{
	if (n_tried < TRIED_MAX)
		snprintf(tried[n_tried++], sizeof(tried[0]), "%s %s", type, uuid);
}

/* One `cryptsetup open --token-only` with the token, the PIN (if any) on
 * its stdin: the plugin answers -ENOANO without one and cryptsetup then
 * reads "Enter token PIN:" from there. Returns 0 or the tool's status /
 * -errno; its words in out. */
static int attempt(const struct luks_container *c, const struct lukstoken_kind *k,
		   const struct luks2_token *tok, const char *pin, size_t pin_len, char *out,
		   size_t size)
{
	char dev[96], id[16], env_one[128] = "";
	const char *argv[12 + LUKS_OPTS_ARGV_MAX] = { LAYOUT_CRYPTSETUP, "open", "--type", "luks2",
						      "--token-only", "--token-type", k->type,
						      "--token-id", id };
	char *env[2] = { NULL, NULL };
	size_t n = 9;

	snprintf(dev, sizeof(dev), "/dev/%s", c->devname);
	snprintf(id, sizeof(id), "%d", tok->id);
	n += luks_opts_argv(c->opts, argv + n, LUKS_OPTS_ARGV_MAX);
	argv[n++] = dev;
	argv[n++] = c->name;
	argv[n] = NULL;
	if (k->env)
		k->env(c, env_one, sizeof(env_one));
	if (env_one[0])
		env[0] = env_one;
	return run_tool_bounded((char *const *)argv, env, pin, pin_len, out, size, k->timeout_ms);
}

/* cryptsetup's words (messages only: the key and the PIN never reach its
 * output) for rd.debug. */
static void log_refusal(const struct luks_container *c, int r, const char *out)
{
	log_debug("cryptsetup open --token-only /dev/%s: %s %d: %s", c->devname,
		  r < 0 ? "error" : "exit", r < 0 ? -r : r, out);
}

static void say_refused(const struct luks_container *c, const struct lukstoken_kind *k,
			const char *why)
{
	log_console("lifeboat: the %s token of /dev/%s (LUKS UUID=%s) did not open it: %s; "
		    "asking for its passphrase instead\n", k->name, c->devname, c->uuid, why);
}

static enum token_result opened(const struct luks_container *c, const struct lukstoken_kind *k,
				const struct luks2_token *tok, bool pin)
{
	char what[80] = "", used[300];

	if (k->describe)
		k->describe(tok, what, sizeof(what));
	luks_opts_suffix(c, false, used, sizeof(used));
	log_info("opened /dev/%s (LUKS UUID=%s) as /dev/mapper/%s with its %s token%s%s%s",
		 c->devname, c->uuid, c->name, k->name, what, pin ? " and its PIN" : "", used);
	return TOKEN_OPENED;
}

void lukstoken_touch_line(const struct luks_container *c, const struct lukstoken_kind *k,
			  char *buf, size_t size)
{
	snprintf(buf, size, "lifeboat: touch your %s security key now to open /dev/%s "
		 "(LUKS UUID=%s); waiting %d s for it\n", k->name, c->devname, c->uuid,
		 k->timeout_ms / 1000);
}

/* A key that wants a touch says so on every console before the attempt
 * (cryptsetup's own "Please confirm presence" goes to its captured output). */
static void say_touch(struct console_set *cons, const struct luks_container *c,
		      const struct lukstoken_kind *k, const struct luks2_token *tok)
{
	char line[300];

	if (!k->needs_touch || !k->needs_touch(tok))
		return;
	lukstoken_touch_line(c, k, line, sizeof(line));
	if (cons)
		console_printf_all(cons, "%s", line);
	else
		log_console("%s", line);
}

/* The PIN on every console, up to the options' tries; a refusal other
 * than a wrong PIN ends the tries at once. */
static enum token_result with_pin(const struct luks_container *c, const struct lukstoken_kind *k,
				  const struct luks2_token *tok)
{
	struct console_set cons;
	const char *why = "cryptsetup could not use the token (rd.debug logs what it said)";
	char pin[256], out[4096];

	if (console_open_all(&cons) < 0) {
		say_refused(c, k, "no console to ask for its PIN on");
		return TOKEN_REFUSED;
	}
	cons.deadline_ms = luks_prompt_deadline(c);
	for (unsigned int i = 1; i <= c->opts->tries; i++) {
		bool pin_wrong = false;
		int len, r;

		console_printf_all(&cons, "\nlifeboat: /dev/%s (LUKS UUID=%s) %s.\n%s (try %u of %u): ",
				   c->devname, c->uuid, k->pin_intro, k->pin_label, i, c->opts->tries);
		len = console_read_answer(&cons, pin, sizeof(pin) - 1, true, NULL);
		console_printf_all(&cons, "\n");
		if (len == -ETIMEDOUT)
			why = k->no_answer;
		if (len < 0)
			break;
		pin[len++] = '\n';
		say_touch(&cons, c, k, tok);
		r = attempt(c, k, tok, pin, (size_t)len, out, sizeof(out));
		explicit_bzero(pin, sizeof(pin));
		if (r == 0) {
			console_close_all(&cons);
			return opened(c, k, tok, true);
		}
		log_refusal(c, r, out);
		why = k->refusal(r, out, &pin_wrong);
		if (!pin_wrong)
			break;
		console_printf_all(&cons, "lifeboat: %s for /dev/%s (UUID=%s).\n", k->pin_wrong,
				   c->devname, c->uuid);
	}
	explicit_bzero(pin, sizeof(pin));
	console_close_all(&cons);
	say_refused(c, k, why);
	return TOKEN_REFUSED;
}

enum token_result lukstoken_open_kind(const struct luks_container *c,
				      const struct lukstoken_kind *k,
				      const struct luks2_tokens *toks)
{
	const struct luks2_token *tok;
	const char *why;
	char out[4096];
	bool pin, pin_wrong;
	int r;

	if (was_tried(k->type, c->uuid) || !luks2token_find(toks, k->type))
		return TOKEN_NONE;
	tok = k->pick(toks, c->opts, &why);
	pin = tok && k->needs_pin(tok, c->opts);
	if (pin && evloop_prompt_busy())
		return TOKEN_NEEDS_CONSOLE;
	mark_tried(k->type, c->uuid);
	/* Said before anything looks for the device: an image without the
	 * support would only find "no device" otherwise. */
	why = !tok ? why : access(k->mark, F_OK) != 0 ? k->no_support : k->device_missing(c, tok);
	if (why) {
		say_refused(c, k, why);
		return TOKEN_REFUSED;
	}
	if (pin)
		return with_pin(c, k, tok);
	say_touch(NULL, c, k, tok);
	r = attempt(c, k, tok, NULL, 0, out, sizeof(out));
	if (r == 0)
		return opened(c, k, tok, false);
	log_refusal(c, r, out);
	say_refused(c, k, k->refusal(r, out, &pin_wrong));
	return TOKEN_REFUSED;
}

enum token_result lukstoken_open(const struct luks_container *c)
{
	struct luks2_tokens toks;
	enum token_result result = TOKEN_NONE;
	char dev[96];

	snprintf(dev, sizeof(dev), "/dev/%s", c->devname);
	if (luks2token_read(dev, &toks, NULL) < 0)
		return TOKEN_NONE;
	for (const struct lukstoken_kind *const *k = lukstoken_kinds; *k; k++) {
		enum token_result r = lukstoken_open_kind(c, *k, &toks);

		if (r == TOKEN_OPENED || r == TOKEN_NEEDS_CONSOLE)
			return r;
		if (r == TOKEN_REFUSED)
			result = r;
	}
	return result;
}
