/* sss: clevis's Shamir secret sharing pin (clevis-encrypt-sss(1)). The
 * JWE is a "dir" JWE whose key is the constant term of a random
 * polynomial of degree t-1 over GF(p); its header (clevis.sss) holds p,
 * the threshold t and one child JWE per share, each encrypted with
 * another pin (tang, tpm2, sss again). A child's plaintext is its point
 * x || y, each as long as p. Any t points give the key by Lagrange
 * interpolation at 0. */
#ifndef LIFEBOAT_SSS_H
#define LIFEBOAT_SSS_H

#include <stdbool.h>
#include <stddef.h>

#include "clevis/jwe.h"

#define SSS_P_MAX 64          /* bytes of p: clevis makes 32 (the A256GCM key) */
#define SSS_CHILDREN_MAX 32

/* Recover one child's plaintext into out (at most size bytes); returns
 * its length or -errno (the callee reports why). */
typedef long (*sss_child_fn)(const struct clevis_jwe *child, size_t index, unsigned char *out,
			     size_t size, void *ctx);
/* Whether a child should be asked in the first round (the callee's
 * choice: local pins before network ones). */
typedef bool (*sss_first_fn)(const struct clevis_jwe *child, void *ctx);
/* Called once after the first round, while more points are needed, with
 * the n children not asked yet (index[i] is children[i]'s; both valid
 * during the call) and how many points are still needed: the callee may
 * ask the remote ones together and keep their answers for child(). */
typedef void (*sss_prefetch_fn)(const struct clevis_jwe *const *children, const size_t *index,
				size_t n, size_t needed, void *ctx);

/* How the children are asked: child() each in turn; first() and
 * prefetch() may be NULL. */
struct sss_asker {
	sss_child_fn child;
	sss_first_fn first;
	sss_prefetch_fn prefetch;
	void *ctx;
};

struct sss_tally {
	int t;            /* the threshold */
	size_t n;         /* children */
	size_t answered;  /* children that gave a point */
	size_t malformed; /* children that are not JWEs */
};

/* Recover the plaintext of an sss JWE into out: ask children (those
 * first() picks, then prefetch() for the others, then the others) until t
 * gave a point, combine them and decrypt. Returns the plaintext's length;
 * -EINVAL for a header that is not clevis's sss, -ENOKEY when fewer than t
 * children answered, -EBADMSG when the combined key does not decrypt,
 * -ENOSPC, -ENOMEM. tally says how far it got. */
long sss_recover(const struct clevis_jwe *jwe, const struct sss_asker *asker, unsigned char *out,
		 size_t size, struct sss_tally *tally);
/* Lagrange interpolation at 0 of n points (each x || y, p_len bytes each,
 * big-endian) modulo p: the secret, p_len bytes, into secret. Returns 0,
 * -EINVAL (two points with the same x, a coordinate not below p, p too
 * small), -ENOMEM. */
int sss_combine(const unsigned char *p, size_t p_len, const unsigned char *points, size_t n,
		unsigned char *secret);

#endif
