/* lukspkcs11: the systemd-pkcs11 token (enrolled by systemd-cryptenroll
 * --pkcs11-token-uri): which one to try, whether its token is there, and
 * how its refusals read; blockstack/lukstoken.c runs it through
 * cryptsetup's systemd-pkcs11 plugin, which finds the token through
 * p11-kit's configured modules, logs in with the PIN and has the token
 * decrypt the volume key with its RSA private key. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSPKCS11_H
#define LIFEBOAT_BLOCKSTACK_LUKSPKCS11_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"
#include "blockstack/lukstoken.h"
#include "common/luks2token.h"

/* Each attempt is bounded: a smart card decrypts in about a second; the
 * bound leaves room for a slow card (and for softhsm2 under qemu TCG). */
#define LUKSPKCS11_TIMEOUT_S 30
#define LUKSPKCS11_TIMEOUT_MS (LUKSPKCS11_TIMEOUT_S * 1000)
/* How long a token is looked for before its PIN is asked: a USB token
 * plugged in at power-on has enumerated long before the root's container
 * is met; this covers one that is a little late. */
#define LUKSPKCS11_WAIT_MS 1000

/* Why a PKCS#11 attempt failed. */
enum pkcs11_why {
	PKCS11_WHY_OTHER,      /* cryptsetup failed otherwise */
	PKCS11_WHY_NO_TOKEN,   /* no token the URI matches is there */
	PKCS11_WHY_PIN,        /* the token refused the PIN */
	PKCS11_WHY_LOCKED,     /* the token's PIN is locked after wrong PINs */
	PKCS11_WHY_OTHER_KEY,  /* the token found lacks the key it was enrolled with */
	PKCS11_WHY_TIMEOUT,    /* no answer within LUKSPKCS11_TIMEOUT_S */
	PKCS11_WHY_NO_ANSWER,  /* nobody typed the PIN within luks_prompt_sec */
	PKCS11_WHY_NO_SUPPORT, /* the image carries no PKCS#11 unlock (built without --pkcs11) */
};

/* The first systemd-pkcs11 token of t, or NULL with *why saying why none. */
const struct luks2_token *lukspkcs11_pick(const struct luks2_tokens *t,
					  const struct luks_opts *o, const char **why);
/* Always: a PKCS#11 token's private key is used only after a login. */
bool lukspkcs11_needs_pin(const struct luks2_token *tok, const struct luks_opts *o);
/* Classify cryptsetup's exit status r and its words out (never shown). */
enum pkcs11_why lukspkcs11_why(int r, const char *out);
/* One line for the user: what the token said and what to do. */
const char *lukspkcs11_why_text(enum pkcs11_why why);
/* Whether a probe (`cryptsetup -v open --test-passphrase --token-only`
 * with nothing on its stdin) that exited r saying out found the token:
 * the plugin then asked for its PIN; without a token it answered that a
 * resource is missing. */
bool lukspkcs11_probe_found(int r, const char *out);
/* The line said when no token matches: the token's URI (from the disk,
 * escaped) in it. */
void lukspkcs11_missing_line(const struct luks2_token *tok, char *buf, size_t size);

/* The systemd-pkcs11 kind of blockstack/lukstoken.c. */
extern const struct lukstoken_kind lukspkcs11_kind;

#endif
