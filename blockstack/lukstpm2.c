/* lukstpm2: the systemd-tpm2 kind of LUKS2 token (blockstack/lukstoken.c
 * runs it): the token under the options, the TPM's drivers, and the
 * reasons libtss2 and systemd give for a refusal. */
#include "blockstack/lukstpm2.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/modload.h"
#include "common/featuremods.h"
#include "common/layout.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define TOKEN_TYPE "systemd-tpm2"
#define NO_SUPPORT "this image has no TPM2 support (cryptsetup's systemd-tpm2 token plugin " \
		   "and the TPM drivers): rebuild it with lifeboat build --block-stacks --tpm2"
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
		return LUKSTOKEN_NO_ANSWER;
	case TPM2_WHY_NO_SUPPORT:
		return NO_SUPPORT;
	case TPM2_WHY_OTHER:
		break;
	}
	return "cryptsetup could not use the token (rd.debug logs what it said)";
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

/* The kind's hooks over the functions above. */
static const char *tpm2_device_missing(const struct luks_container *c,
				       const struct luks2_token *tok)
{
	enum tpm2_why why = TPM2_WHY_OTHER;

	(void)tok;
	if (lukstpm2_can_try(true, lukstpm2_device_ready,
			     c->opts->tpm2_device[0] ? c->opts->tpm2_device : LUKSTPM2_DEVICE_DEFAULT,
			     &why))
		return NULL;
	return lukstpm2_why_text(why);
}

static const char *tpm2_refusal(int r, const char *out, bool *pin_wrong)
{
	enum tpm2_why why = lukstpm2_why(r, out);

	*pin_wrong = why == TPM2_WHY_PIN;
	return lukstpm2_why_text(why);
}

/* systemd's TPM2 code takes a device other than /dev/tpmrm0 from here. */
static void tpm2_env(const struct luks_container *c, char *buf, size_t size)
{
	if (c->opts->tpm2_device[0])
		snprintf(buf, size, "SYSTEMD_TPM2_DEVICE=device:%s", c->opts->tpm2_device);
}

static void tpm2_describe(const struct luks2_token *tok, char *buf, size_t size)
{
	char pcrs[80];

	luks2token_pcrs_format(tok->tpm2_pcrs, pcrs, sizeof(pcrs));
	snprintf(buf, size, " (PCRs %s)", pcrs[0] ? pcrs : "none");
}

const struct lukstoken_kind lukstpm2_kind = {
	.type = TOKEN_TYPE,
	.name = "TPM2",
	.mark = LAYOUT_TPM2_MARK,
	.no_support = NO_SUPPORT,
	.no_answer = LUKSTOKEN_NO_ANSWER,
	.timeout_ms = LUKSTPM2_TIMEOUT_MS,
	.pin_intro = "is bound to the TPM with a PIN",
	.pin_label = "TPM2 PIN",
	.pin_wrong = "the TPM refused the PIN",
	.pick = lukstpm2_pick,
	.needs_pin = lukstpm2_needs_pin,
	.device_missing = tpm2_device_missing,
	.refusal = tpm2_refusal,
	.env = tpm2_env,
	.describe = tpm2_describe,
	.needs_touch = NULL,
};
