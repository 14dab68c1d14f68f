/* lukstoken: open a LUKS2 container with a token systemd-cryptenroll
 * enrolled (systemd-tpm2, systemd-fido2, systemd-pkcs11) before anyone is asked for its
 * passphrase. One runner serves every kind: `cryptsetup open --token-only
 * --token-type TYPE`, which loads systemd's token plugin for that type;
 * what differs between kinds (which token, whether its device is there,
 * how its refusals read) is in a struct lukstoken_kind
 * (blockstack/lukstpm2.c, blockstack/luksfido2.c, blockstack/lukspkcs11.c). */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSTOKEN_H
#define LIFEBOAT_BLOCKSTACK_LUKSTOKEN_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"
#include "common/luks2token.h"

/* Said when a token's PIN prompt ran out of time. */
#define LUKSTOKEN_NO_ANSWER "nobody typed its PIN in time (rd.luks.timeout=, crypttab's " \
			    "timeout=, or a capture kernel's bound)"

enum token_result {
	TOKEN_OPENED,         /* a token opened it */
	TOKEN_NONE,           /* no token for this container, or it was tried already */
	TOKEN_REFUSED,        /* the token was refused (or its device missing); said once */
	TOKEN_NEEDS_CONSOLE,  /* a PIN is to be asked while another prompt holds the console */
};

struct lukstoken_kind {
	const char *type;      /* the token's type: "systemd-tpm2" */
	const char *name;      /* in messages: "TPM2" */
	const char *mark;      /* in images that carry this unlock (common/layout.h) */
	const char *no_support;  /* said when the image lacks the mark */
	const char *no_answer;   /* said when nobody typed the PIN in time */
	int timeout_ms;        /* each cryptsetup run's bound */
	/* "is bound to the TPM with a PIN", "TPM2 PIN", "the TPM refused the PIN" */
	const char *pin_intro, *pin_label, *pin_wrong;
	/* Which token of t to try under o, or NULL with *why saying why none. */
	const struct luks2_token *(*pick)(const struct luks2_tokens *t, const struct luks_opts *o,
					  const char **why);
	bool (*needs_pin)(const struct luks2_token *tok, const struct luks_opts *o);
	/* NULL when tok's device is there (drivers loaded), or why not. */
	const char *(*device_missing)(const struct luks_container *c, const struct luks2_token *tok);
	/* cryptsetup failed with r and said out: the line for the user;
	 * *pin_wrong when only the PIN was wrong (asked again). */
	const char *(*refusal)(int r, const char *out, bool *pin_wrong);
	/* Environment for cryptsetup (one "NAME=value" into buf), or "". */
	void (*env)(const struct luks_container *c, char *buf, size_t size);
	/* What the log says it opened with: " (PCRs 1)". */
	void (*describe)(const struct luks2_token *tok, char *buf, size_t size);
	/* Whether to say "touch your key" on every console before each attempt (NULL: never). */
	bool (*needs_touch)(const struct luks2_token *tok);
};

/* The kinds tried, in order. */
extern const struct lukstoken_kind *const lukstoken_kinds[];

/* Try the container's tokens once per boot (a refused token falls back to
 * the key files' and passphrase's prompt, never loops), each kind in
 * lukstoken_kinds' order. A PIN token asks for the PIN on every console,
 * up to the options' tries. Nothing secret is logged. */
enum token_result lukstoken_open(const struct luks_container *c);
/* One kind's attempt: for tests of the order. */
enum token_result lukstoken_open_kind(const struct luks_container *c,
				      const struct lukstoken_kind *k,
				      const struct luks2_tokens *toks);
/* The line said before a touch: for its tests. */
void lukstoken_touch_line(const struct luks_container *c, const struct lukstoken_kind *k,
			  char *buf, size_t size);

#endif
