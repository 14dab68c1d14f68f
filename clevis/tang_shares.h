/* tang_shares: several Tang shares recovered at once (the tang children of
 * an sss binding): every exchange begun (clevis/mr.c), every server asked
 * in one batch of the HTTP client (bootlib/http.c), each answer finished
 * as it comes; once enough shares gave their plaintext, the servers still
 * silent are abandoned, so a server that is down costs nothing when the
 * others answer. */
#ifndef LIFEBOAT_CLEVIS_TANG_SHARES_H
#define LIFEBOAT_CLEVIS_TANG_SHARES_H

#include <stddef.h>

#include "clevis/jwe.h"
#include "clevis/tang.h"

#define TANG_PLAIN_MAX 256

struct tang_share {
	const struct clevis_jwe *jwe;    /* a tang JWE (its URL in its header) */
	/* Set by tang_shares_recover: */
	long n;                          /* the plaintext's length, or -errno */
	int status;                      /* the server's HTTP status; 0 when none came */
	unsigned char plain[TANG_PLAIN_MAX];
	char why[HTTP_WHY_MAX + 64];     /* what failed */
};

/* Recover the n shares side by side within timeout_ms; stop once needed of
 * them have their plaintext (those not waited for end with -ECANCELED).
 * Returns how many succeeded, or -ENOMEM. */
int tang_shares_recover(struct tang_share *shares, size_t n, size_t needed, int timeout_ms);

#endif
