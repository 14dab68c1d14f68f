/* pin: recover the plaintext of a clevis JWE by its pin, whichever it is:
 * tang (the McCallum-Relyea exchange with the server, clevis/mr.c), tpm2
 * (unsealed by the TPM, clevis/tpm2pin.c), sss (t of n children, nested
 * sss included, read as one tree, clevis/sss_tree.c: the local shares of
 * the whole tree in turn, then every Tang share of the whole tree at once,
 * clevis/tang_shares.c, until the tree can be opened or no longer can;
 * clevis/sss.c) and null (the key in the header: clevis's pin for tests).
 * Each binding or share that fails is reported in one line naming it and
 * why; what opened it is kept for the caller's message. */
#ifndef LIFEBOAT_PIN_H
#define LIFEBOAT_PIN_H

#include <stdbool.h>
#include <stdio.h>

#include "clevis/jwe.h"
#include "clevis/mr.h"
#include "clevis/tpm2pin.h"

struct pin_env {
	const char *what;            /* names the binding in reports: "clevis token 0 on /dev/vda" */
	FILE *report;                /* where failures are said (one line each) */
	int timeout_ms;              /* a Tang server's; an sss tree's servers' together */
	mr_exchange_fn exchange;     /* NULL: HTTP to the binding's own URL */
	void *exchange_ctx;
	tpm2pin_tcti_fn open_tcti;   /* NULL: TPM2PIN_DEVICE */
	void *tcti_ctx;
};

/* Whether lifeboat-clevis can recover a JWE of this pin. */
bool pin_known(const char *pin);
/* Recover the JWE's plaintext into out (at most size bytes). Returns its
 * length, or -errno once every way failed (each reported). used gets what
 * opened it: "tang", "tpm2", "sss (tpm2)". */
long pin_recover(const struct clevis_jwe *jwe, const struct pin_env *env, unsigned char *out,
		 size_t size, char *used, size_t used_size);

#endif
