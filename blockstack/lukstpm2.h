/* lukstpm2: open a LUKS2 container with its systemd-tpm2 token (enrolled
 * by systemd-cryptenroll) before anyone is asked for its passphrase. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSTPM2_H
#define LIFEBOAT_BLOCKSTACK_LUKSTPM2_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"
#include "common/luks2token.h"

/* Each attempt is bounded: a TPM that does not answer must not hang the
 * boot. A real TPM unseals in well under a second; the bound leaves room
 * for a slow one (and for swtpm under qemu TCG in the boot tests). */
#define LUKSTPM2_TIMEOUT_S 30
#define LUKSTPM2_TIMEOUT_MS (LUKSTPM2_TIMEOUT_S * 1000)
/* The kernel's TPM2 resource manager: what systemd's TCTI opens. */
#define LUKSTPM2_DEVICE_DEFAULT "/dev/tpmrm0"

enum tpm2_result {
	TPM2_OPENED,         /* the token opened it */
	TPM2_NONE,           /* no token for this container, or it was tried already */
	TPM2_REFUSED,        /* the TPM (or the PIN) refused; the reason was said once */
	TPM2_NEEDS_CONSOLE,  /* a PIN is to be asked while another prompt holds the console */
};

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

/* Try the container's systemd-tpm2 token once (each container once per
 * boot: a refused token falls back to the key files' and passphrase's
 * prompt, never loops). A PIN token asks for the PIN on every console,
 * up to the options' tries. Nothing secret is logged. */
enum tpm2_result lukstpm2_open(const struct luks_container *c);
/* Whether the TPM device at path exists, after loading the TPM's drivers
 * (FEATUREMODS_TPM2) from the image when it does not (a clevis tpm2 pin
 * needs it too). */
bool lukstpm2_device_ready(const char *path);

#endif
