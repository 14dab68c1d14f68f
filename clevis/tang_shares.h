/* tang_shares: several Tang shares recovered at once (the Tang leaves of
 * an sss binding's whole tree, clevis/pin.c; a container's tang tokens,
 * clevis/clevis_main.c): every exchange begun (clevis/mr.c), every server
 * asked in one batch of the HTTP client (bootlib/http.c), one deadline
 * for them all, each answer finished as it comes; once the caller's rule
 * says it has enough, the servers still silent are abandoned, so a server
 * that is down costs nothing when the others answer. */
#ifndef LIFEBOAT_CLEVIS_TANG_SHARES_H
#define LIFEBOAT_CLEVIS_TANG_SHARES_H

#include <stdbool.h>
#include <stddef.h>

#include "clevis/jwe.h"
#include "clevis/tang.h"

#define TANG_PLAIN_MAX 256

struct tang_share {
	const struct clevis_jwe *jwe;    /* a tang JWE (its URL in its header) */
	/* Set by tang_shares_run: */
	long n;                          /* the plaintext's length, or -errno */
	int status;                      /* the server's HTTP status; 0 when none came */
	unsigned char plain[TANG_PLAIN_MAX];
	char why[HTTP_WHY_MAX + 64];     /* what failed */
};

/* Called as share i ends (its n, plain, why set), those that cannot be
 * asked included: whether the caller has enough, the rest abandoned. */
typedef bool (*tang_shares_enough_fn)(size_t i, void *ctx);

/* Recover the n shares side by side within timeout_ms, until enough()
 * says so (those not waited for end with -ECANCELED and say nothing).
 * Returns how many succeeded, or -ENOMEM. */
int tang_shares_run(struct tang_share *shares, size_t n, tang_shares_enough_fn enough, void *ctx,
		    int timeout_ms);
/* The same, stopping once needed of them have their plaintext. */
int tang_shares_recover(struct tang_share *shares, size_t n, size_t needed, int timeout_ms);

#endif
