/* lukstang: open a LUKS2 container with its clevis bindings (pins tang,
 * tpm2, sss), before anyone is asked (docs/blockstacks.md). */
#ifndef LIFEBOAT_LUKSTANG_H
#define LIFEBOAT_LUKSTANG_H

#include "blockstack/luks.h"

/* How long each Tang server is given to answer: a server that is down
 * must not keep the prompt away for long. */
#define LUKS_TANG_TIMEOUT_SEC 10

enum tang_result {
	TANG_NONE,      /* the image has no lifeboat-clevis, or the container no clevis binding */
	TANG_OPENED,
	TANG_FAILED,    /* the bindings were tried; the console says why */
};

/* Run lifeboat-clevis (LAYOUT_CLEVIS) on the container: it recovers the
 * passphrase from its clevis tokens (Tang servers, the TPM) and hands it
 * to cryptsetup itself, so the secret never passes through PID 1. */
enum tang_result luks_tang_open(const struct luks_container *c);

#endif
