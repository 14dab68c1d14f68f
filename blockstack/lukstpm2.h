/* lukstpm2: the systemd-tpm2 token (enrolled by systemd-cryptenroll
 * --tpm2-device): which one to try, whether the TPM is there, and how
 * its refusals read; blockstack/lukstoken.c runs it. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSTPM2_H
#define LIFEBOAT_BLOCKSTACK_LUKSTPM2_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"
#include "blockstack/lukstoken.h"
#include "common/luks2token.h"

/* Each attempt is bounded: a TPM that does not answer must not hang the
 * boot. A real TPM unseals in well under a second; the bound leaves room
 * for a slow one (and for swtpm under qemu TCG in the boot tests). */
#define LUKSTPM2_TIMEOUT_S 30
#define LUKSTPM2_TIMEOUT_MS (LUKSTPM2_TIMEOUT_S * 1000)
/* The kernel's TPM2 resource manager: what systemd's TCTI opens. */
#define LUKSTPM2_DEVICE_DEFAULT "/dev/tpmrm0"

/* Why a TPM2 attempt failed. */
enum tpm2_why {
	TPM2_WHY_OTHER,      /* cryptsetup failed otherwise */
	TPM2_WHY_NO_TPM,     /* no TPM2 device */
	TPM2_WHY_PCRS,       /* the PCR policy failed: the measured boot changed */
	TPM2_WHY_PIN,        /* the PIN was refused */
	TPM2_WHY_LOCKOUT,    /* the TPM's dictionary-attack lockout */
	TPM2_WHY_TIMEOUT,    /* no answer within LUKSTPM2_TIMEOUT_MS */
	TPM2_WHY_NO_ANSWER,  /* nobody typed the PIN within luks_prompt_sec */
	TPM2_WHY_NO_SUPPORT, /* the image carries no TPM2 unlock (built without --tpm2) */
};

/* Which token of t to try under the options o (tpm2-pcrs= picks one
 * bound to exactly those PCRs), or NULL with *why saying why none. */
const struct luks2_token *lukstpm2_pick(const struct luks2_tokens *t,
					const struct luks_opts *o, const char **why);
/* Whether a token can be tried at all: not when this image has no TPM2
 * unlock (image_has_tpm2 false: no LAYOUT_TPM2_MARK), which is said before
 * anything looks for a TPM, nor when device_ready(device) finds none.
 * False with *why set. */
bool lukstpm2_can_try(bool image_has_tpm2, bool (*device_ready)(const char *path),
		      const char *device, enum tpm2_why *why);
/* Whether the token asks for a PIN under o's tpm2-pin=. */
bool lukstpm2_needs_pin(const struct luks2_token *tok, const struct luks_opts *o);
/* Classify cryptsetup's exit status r and its words out (never shown:
 * they may be long, and are the tool's, not the user's). */
enum tpm2_why lukstpm2_why(int r, const char *out);
/* One line for the user: what the TPM said and what to do. */
const char *lukstpm2_why_text(enum tpm2_why why);

/* The systemd-tpm2 kind of blockstack/lukstoken.c. */
extern const struct lukstoken_kind lukstpm2_kind;
/* Whether the TPM device at path exists, after loading the TPM's drivers
 * (FEATUREMODS_TPM2) from the image when it does not (a clevis tpm2 pin
 * needs it too). */
bool lukstpm2_device_ready(const char *path);

#endif
