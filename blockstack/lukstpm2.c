/* lukstpm2: a LUKS2 systemd-tpm2 token, tried once per container through
 * cryptsetup and systemd's token plugin, bounded in time; a PIN is asked
 * on the consoles like a passphrase. */
#include "blockstack/lukstpm2.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/console.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/run.h"
#include "common/featuremods.h"
#include "common/layout.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define TOKEN_TYPE "systemd-tpm2"
#define TRIED_MAX 32
/* cryptsetup's exit status when the token's key was refused. */
#define CRYPTSETUP_EXIT_NO_PERMISSION 2

static char tried[TRIED_MAX][40];
static size_t n_tried;

static bool was_tried(const char *uuid)
{
	for (size_t i = 0; i < n_tried; i++)
		if (strcmp(tried[i], uuid) == 0)
			return true;
	return false;
}

static void mark_tried(const char *uuid)
{
	if (n_tried < TRIED_MAX)
		snprintf(tried[n_tried++], sizeof(tried[0]), "%s", uuid);
}

bool lukstpm2_needs_pin(const struct luks2_token *tok, const struct luks_opts *o)
{
	return o->tpm2_pin == LUKS_TPM2_PIN_YES || (tok->tpm2_pin && o->tpm2_pin != LUKS_TPM2_PIN_NO);
}

const struct luks2_token *lukstpm2_pick(const struct luks2_tokens *t,
					const struct luks_opts *o, const char **why)
{
	*why = "it has no " TOKEN_TYPE " token";
	for (size_t i = 0; i < t->n; i++) {
		const struct luks2_token *tok = &t->t[i];

		if (strcmp(tok->type, TOKEN_TYPE) != 0)
			continue;
		if ((o->flags & LUKS_OPT_TPM2_PCRS) && tok->tpm2_pcrs != o->tpm2_pcrs) {
			*why = "its TPM2 token is bound to other PCRs than its tpm2-pcrs= option names";
			continue;
		}
		if (tok->tpm2_pin && o->tpm2_pin == LUKS_TPM2_PIN_NO) {
			*why = "its TPM2 token needs a PIN and its options say tpm2-pin=no";
			continue;
		}
		return tok;
	}
	return NULL;
}

/* Phrases of libtss2's response-code decoder and of systemd's TPM2 code,
 * as cryptsetup passes them on, in the order they are looked for. */
static const struct {
	const char *phrase;
	enum tpm2_why why;
} phrases[] = {
	{ "lockout",                          TPM2_WHY_LOCKOUT },
	{ "authorization HMAC check failed",  TPM2_WHY_PIN },
	{ "policy check failed",              TPM2_WHY_PCRS },
	/* systemd 252 compares the PCRs' policy digest before unsealing. */
	{ "policy digest does not match",     TPM2_WHY_PCRS },
	{ "TPM2 device not found",            TPM2_WHY_NO_TPM },
	{ "No TPM2",                          TPM2_WHY_NO_TPM },
	{ "requires additional missing resource", TPM2_WHY_NO_TPM },
};

enum tpm2_why lukstpm2_why(int r, const char *out)
{
	if (r == -ETIMEDOUT)
		return TPM2_WHY_TIMEOUT;
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (strstr(out, phrases[i].phrase))
			return phrases[i].why;
	return TPM2_WHY_OTHER;
}

const char *lukstpm2_why_text(enum tpm2_why why)
{
	switch (why) {
	case TPM2_WHY_NO_TPM:
		return "no TPM2 device was found (is the TPM turned on in the firmware?)";
	case TPM2_WHY_PCRS:
		return "the TPM refused: the PCRs the token is bound to have changed since it "
		       "was enrolled (firmware, boot loader or its settings changed); enrol it "
		       "again with systemd-cryptenroll once booted";
	case TPM2_WHY_PIN:
		return "the TPM refused the PIN";
	case TPM2_WHY_LOCKOUT:
		return "the TPM is in dictionary-attack lockout after wrong PINs; it lifts "
		       "after the TPM's recovery time (or tpm2_dictionarylockout -c)";
	case TPM2_WHY_TIMEOUT:
		return "the TPM did not answer within " XSTR(LUKSTPM2_TIMEOUT_S) " s";
	case TPM2_WHY_NO_ANSWER:
		return "nobody typed its PIN in time (rd.luks.timeout=, crypttab's timeout=, "
		       "or a capture kernel's bound)";
	case TPM2_WHY_NO_SUPPORT:
		return "this image has no TPM2 support (cryptsetup's systemd-tpm2 token plugin "
		       "and the TPM drivers): rebuild it with lifeboat build --block-stacks --tpm2";
	case TPM2_WHY_OTHER:
		break;
	}
	return "cryptsetup could not use the token (rd.debug logs what it said)";
}

/* One `cryptsetup open --token-only` with the token, the PIN (if any) on
 * its stdin. Returns 0 or the tool's status / -errno; its words in out. */
static int attempt(const struct luks_container *c, const struct luks2_token *tok,
		   const char *pin, size_t pin_len, char *out, size_t size)
{
	char dev[96], id[16], env_dev[96];
	const char *argv[12 + LUKS_OPTS_ARGV_MAX] = { LAYOUT_CRYPTSETUP, "open", "--type", "luks2",
						      "--token-only", "--token-type", TOKEN_TYPE,
						      "--token-id", id };
	char *env[2] = { NULL, NULL };
	size_t n = 9;

	snprintf(dev, sizeof(dev), "/dev/%s", c->devname);
	snprintf(id, sizeof(id), "%d", tok->id);
	n += luks_opts_argv(c->opts, argv + n, LUKS_OPTS_ARGV_MAX);
	argv[n++] = dev;
	argv[n++] = c->name;
	argv[n] = NULL;
	/* systemd's TPM2 code takes a device other than /dev/tpmrm0 from here. */
	if (c->opts->tpm2_device[0]) {
		snprintf(env_dev, sizeof(env_dev), "SYSTEMD_TPM2_DEVICE=device:%s",
			 c->opts->tpm2_device);
		env[0] = env_dev;
	}
	return run_tool_bounded((char *const *)argv, env, pin, pin_len, out, size,
				LUKSTPM2_TIMEOUT_MS);
}

/* cryptsetup's words (messages only: the key and the PIN never reach its
 * output) for rd.debug. */
static void log_refusal(const struct luks_container *c, int r, const char *out)
{
	log_debug("cryptsetup open --token-only /dev/%s: %s %d: %s", c->devname,
		  r < 0 ? "error" : "exit", r < 0 ? -r : r, out);
}

static void say_refused(const struct luks_container *c, const char *why)
{
	log_console("lifeboat: the TPM2 token of /dev/%s (LUKS UUID=%s) did not open it: %s; "
		    "asking for its passphrase instead\n", c->devname, c->uuid, why);
}

static enum tpm2_result opened(const struct luks_container *c, const struct luks2_token *tok,
			       bool pin)
{
	char pcrs[80], used[300];

	luks2token_pcrs_format(tok->tpm2_pcrs, pcrs, sizeof(pcrs));
	luks_opts_suffix(c, false, used, sizeof(used));
	log_info("opened /dev/%s (LUKS UUID=%s) as /dev/mapper/%s with its TPM2 token (PCRs %s)%s%s",
		 c->devname, c->uuid, c->name, pcrs[0] ? pcrs : "none", pin ? " and its PIN" : "",
		 used);
	return TPM2_OPENED;
}

/* The PIN on every console, up to the options' tries; a refusal other
 * than a wrong PIN (PCRs, lockout) ends the tries at once. */
static enum tpm2_result with_pin(const struct luks_container *c, const struct luks2_token *tok)
{
	struct console_set cons;
	enum tpm2_why why = TPM2_WHY_OTHER;
	char pin[256], out[4096];

	if (console_open_all(&cons) < 0) {
		say_refused(c, "no console to ask for its PIN on");
		return TPM2_REFUSED;
	}
	cons.deadline_ms = luks_prompt_deadline(c);
	for (unsigned int i = 1; i <= c->opts->tries; i++) {
		int len, r;

		console_printf_all(&cons, "\nlifeboat: /dev/%s (LUKS UUID=%s) is bound to the TPM "
				   "with a PIN.\nTPM2 PIN (try %u of %u): ", c->devname, c->uuid, i,
				   c->opts->tries);
		len = console_read_answer(&cons, pin, sizeof(pin) - 1, true, NULL);
		console_printf_all(&cons, "\n");
		if (len == -ETIMEDOUT)
			why = TPM2_WHY_NO_ANSWER;
		if (len < 0)
			break;
		pin[len++] = '\n';
		r = attempt(c, tok, pin, (size_t)len, out, sizeof(out));
		explicit_bzero(pin, sizeof(pin));
		if (r == 0) {
			console_close_all(&cons);
			return opened(c, tok, true);
		}
		log_refusal(c, r, out);
		why = lukstpm2_why(r, out);
		if (why != TPM2_WHY_PIN)
			break;
		console_printf_all(&cons, "lifeboat: the TPM refused the PIN for /dev/%s (UUID=%s).\n",
				   c->devname, c->uuid);
	}
	explicit_bzero(pin, sizeof(pin));
	console_close_all(&cons);
	say_refused(c, lukstpm2_why_text(why));
	return TPM2_REFUSED;
}

/* The TPM's drivers may be modules (the kernel asks for none by itself
 * here); a driver's probe makes its device before finit_module returns. */
bool lukstpm2_device_ready(const char *path)
{
	static const char *const modules[] = { FEATUREMODS_TPM2, NULL };
	struct stat st;

	if (stat(path, &st) == 0)
		return true;
	for (const char *const *m = modules; *m; m++)
		modload_name(*m);
	return stat(path, &st) == 0;
}

bool lukstpm2_can_try(bool image_has_tpm2, bool (*device_ready)(const char *path),
		      const char *device, enum tpm2_why *why)
{
	if (!image_has_tpm2)
		*why = TPM2_WHY_NO_SUPPORT;
	else if (!device_ready(device))
		*why = TPM2_WHY_NO_TPM;
	else
		return true;
	return false;
}

enum tpm2_result lukstpm2_open(const struct luks_container *c)
{
	struct luks2_tokens toks;
	const struct luks2_token *tok;
	const char *why;
	enum tpm2_why why_not;
	char dev[96], out[4096];
	bool pin;
	int r;

	snprintf(dev, sizeof(dev), "/dev/%s", c->devname);
	if (was_tried(c->uuid) || luks2token_read(dev, &toks, NULL) < 0 ||
	    !luks2token_find(&toks, TOKEN_TYPE))
		return TPM2_NONE;
	tok = lukstpm2_pick(&toks, c->opts, &why);
	pin = tok && lukstpm2_needs_pin(tok, c->opts);
	if (pin && evloop_prompt_busy())
		return TPM2_NEEDS_CONSOLE;
	mark_tried(c->uuid);
	if (!tok) {
		say_refused(c, why);
		return TPM2_REFUSED;
	}
	if (!lukstpm2_can_try(access(LAYOUT_TPM2_MARK, F_OK) == 0, lukstpm2_device_ready,
			      c->opts->tpm2_device[0] ? c->opts->tpm2_device : LUKSTPM2_DEVICE_DEFAULT,
			      &why_not)) {
		say_refused(c, lukstpm2_why_text(why_not));
		return TPM2_REFUSED;
	}
	if (pin)
		return with_pin(c, tok);
	r = attempt(c, tok, NULL, 0, out, sizeof(out));
	if (r == 0)
		return opened(c, tok, false);
	log_refusal(c, r, out);
	say_refused(c, lukstpm2_why_text(lukstpm2_why(r, out)));
	return TPM2_REFUSED;
}
