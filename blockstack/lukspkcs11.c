/* lukspkcs11: the systemd-pkcs11 kind of LUKS2 token (blockstack/lukstoken.c
 * runs it): the token, whether a token its URI matches is there, and the
 * reasons systemd's PKCS#11 code and p11-kit give for a refusal. */
#include "blockstack/lukspkcs11.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bootlib/clock.h"
#include "bootlib/run.h"
#include "common/layout.h"
#include "common/termescape.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define TOKEN_TYPE "systemd-pkcs11"
#define POLL_MS 250
#define NO_SUPPORT "this image has no PKCS#11 support (cryptsetup's systemd-pkcs11 token " \
		   "plugin, p11-kit and the host's PKCS#11 modules): rebuild it with lifeboat " \
		   "build --block-stacks --pkcs11"

const struct luks2_token *lukspkcs11_pick(const struct luks2_tokens *t,
					  const struct luks_opts *o, const char **why)
{
	(void)o;
	*why = "it has no " TOKEN_TYPE " token";
	return luks2token_find(t, TOKEN_TYPE);
}

bool lukspkcs11_needs_pin(const struct luks2_token *tok, const struct luks_opts *o)
{
	(void)tok;
	(void)o;
	return true;
}

/* Phrases of systemd 252's PKCS#11 code (the plugin's and
 * libsystemd-shared's) and of p11-kit's p11_kit_strerror, as cryptsetup
 * passes them on, in the order they are looked for. systemd says "PIN
 * has been entered incorrectly previously" and "(final try)" before a
 * login that may well work: they are no reason. */
static const struct {
	const char *phrase;
	enum pkcs11_why why;
} phrases[] = {
	{ "PIN has been locked",                       PKCS11_WHY_LOCKED },
	{ "PIN is locked",                             PKCS11_WHY_LOCKED },
	{ "is incorrect, please try again",            PKCS11_WHY_PIN },
	{ "PIN is incorrect",                          PKCS11_WHY_PIN },
	{ "PIN is invalid",                            PKCS11_WHY_PIN },
	{ "PIN is of an invalid length",               PKCS11_WHY_PIN },
	{ "private key suitable for decryption",       PKCS11_WHY_OTHER_KEY },
	{ "Failed to decrypt key on security token",   PKCS11_WHY_OTHER_KEY },
	{ "requires additional missing resource",      PKCS11_WHY_NO_TOKEN },
	{ "Specified PKCS#11 token with URI",          PKCS11_WHY_NO_TOKEN },
	{ "not present or unplugged",                  PKCS11_WHY_NO_TOKEN },
	{ "removed or unplugged",                      PKCS11_WHY_NO_TOKEN },
};

enum pkcs11_why lukspkcs11_why(int r, const char *out)
{
	if (r == -ETIMEDOUT)
		return PKCS11_WHY_TIMEOUT;
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (strstr(out, phrases[i].phrase))
			return phrases[i].why;
	return PKCS11_WHY_OTHER;
}

const char *lukspkcs11_why_text(enum pkcs11_why why)
{
	switch (why) {
	case PKCS11_WHY_NO_TOKEN:
		return "no PKCS#11 token it was enrolled with is there (plug in the smart card "
		       "or token and reboot, or type the passphrase)";
	case PKCS11_WHY_PIN:
		return "the PKCS#11 token refused the PIN";
	case PKCS11_WHY_LOCKED:
		return "the PKCS#11 token's PIN is locked after wrong PINs (unlock it with its "
		       "security officer's PIN, e.g. pkcs11-tool --unlock-pin, once booted)";
	case PKCS11_WHY_OTHER_KEY:
		return "the PKCS#11 token found does not hold the key it was enrolled with "
		       "(another token with the same label?)";
	case PKCS11_WHY_TIMEOUT:
		return "the PKCS#11 token did not answer within " XSTR(LUKSPKCS11_TIMEOUT_S) " s";
	case PKCS11_WHY_NO_ANSWER:
		return LUKSTOKEN_NO_ANSWER;
	case PKCS11_WHY_NO_SUPPORT:
		return NO_SUPPORT;
	case PKCS11_WHY_OTHER:
		break;
	}
	return "cryptsetup could not use the token (rd.debug logs what it said)";
}

bool lukspkcs11_probe_found(int r, const char *out)
{
	return r == 0 || !strstr(out, "requires additional missing resource");
}

void lukspkcs11_missing_line(const struct luks2_token *tok, char *buf, size_t size)
{
	char uri[LUKS2TOKEN_URI_MAX * 4];

	/* The URI is the disk's: escaped, so it cannot forge a line. */
	term_escape(uri, sizeof(uri), tok->pkcs11_uri, strlen(tok->pkcs11_uri), 0);
	snprintf(buf, size, "no PKCS#11 token matching %s is there (plug in the smart card or "
		 "token it was enrolled with and reboot, or type the passphrase)",
		 uri[0] ? uri : "its URI");
}

/* One attempt without a PIN, which opens nothing (--test-passphrase):
 * the plugin asks for the PIN only once it has found the token. */
static bool probe(const struct luks_container *c, const struct luks2_token *tok)
{
	char dev[96], id[16], out[2048];
	const char *argv[] = { LAYOUT_CRYPTSETUP, "-v", "open", "--test-passphrase", "--type",
			       "luks2", "--token-only", "--token-type", TOKEN_TYPE, "--token-id",
			       id, dev, NULL };
	int r;

	snprintf(dev, sizeof(dev), "/dev/%s", c->devname);
	snprintf(id, sizeof(id), "%d", tok->id);
	r = run_tool_bounded((char *const *)argv, NULL, NULL, 0, out, sizeof(out),
			     LUKSPKCS11_TIMEOUT_MS);
	return lukspkcs11_probe_found(r, out);
}

/* The token is looked for before its PIN is asked: nobody is to type a
 * PIN for a card that is not in its reader. */
static const char *pkcs11_device_missing(const struct luks_container *c,
					 const struct luks2_token *tok)
{
	static char line[LUKS2TOKEN_URI_MAX * 4 + 200];
	const struct timespec pause = { 0, POLL_MS * 1000000L };
	uint64_t until = clock_now_ms() + LUKSPKCS11_WAIT_MS;

	while (!probe(c, tok)) {
		if (clock_now_ms() >= until) {
			lukspkcs11_missing_line(tok, line, sizeof(line));
			return line;
		}
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static const char *pkcs11_refusal(int r, const char *out, bool *pin_wrong)
{
	enum pkcs11_why why = lukspkcs11_why(r, out);

	*pin_wrong = why == PKCS11_WHY_PIN;
	return lukspkcs11_why_text(why);
}

const struct lukstoken_kind lukspkcs11_kind = {
	.type = TOKEN_TYPE,
	.name = "PKCS#11",
	.mark = LAYOUT_PKCS11_MARK,
	.no_support = NO_SUPPORT,
	.no_answer = LUKSTOKEN_NO_ANSWER,
	.timeout_ms = LUKSPKCS11_TIMEOUT_MS,
	.pin_intro = "is bound to a PKCS#11 token (smart card) with a PIN",
	.pin_label = "PKCS#11 token PIN",
	.pin_wrong = "the PKCS#11 token refused the PIN",
	.pick = lukspkcs11_pick,
	.needs_pin = lukspkcs11_needs_pin,
	.device_missing = pkcs11_device_missing,
	.refusal = pkcs11_refusal,
	.env = NULL,
	.describe = NULL,
	.needs_touch = NULL,
};
