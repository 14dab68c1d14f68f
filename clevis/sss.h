/* sss: clevis's Shamir secret sharing pin (clevis-encrypt-sss(1)). The
 * JWE is a "dir" JWE whose key is the constant term of a random
 * polynomial of degree t-1 over GF(p); its header (clevis.sss) holds p,
 * the threshold t and one child JWE per share, each encrypted with
 * another pin (tang, tpm2, sss again). A child's plaintext is its point
 * x || y, each as long as p. Any t points give the key by Lagrange
 * interpolation at 0. Which children are asked, and when, is
 * clevis/sss_tree.c's and clevis/pin.c's: this reads a header and opens
 * it from its points. */
#ifndef LIFEBOAT_SSS_H
#define LIFEBOAT_SSS_H

#include <stddef.h>

#include "clevis/jwe.h"

#define SSS_P_MAX 64          /* bytes of p: clevis makes 32 (the A256GCM key) */
#define SSS_CHILDREN_MAX 32

/* The header's clevis.sss. children is the header's own array: valid
 * while the JWE is. */
struct sss_header {
	unsigned char p[SSS_P_MAX];
	size_t p_len;
	int t;                           /* the threshold */
	size_t n;                        /* children */
	struct json_object *children;
};

/* Read the header of an sss JWE. Returns 0, or -EINVAL for a header that
 * is not clevis's sss ("dir", A256GCM; p; 1 <= t <= n <= SSS_CHILDREN_MAX). */
int sss_header_read(const struct clevis_jwe *jwe, struct sss_header *h);
/* Child i's JWE (compact, as clevis writes it), parsed into child.
 * Returns 0, or -EINVAL when it is not a JWE. */
int sss_header_child(const struct sss_header *h, size_t i, struct clevis_jwe *child);
/* The plaintext of the sss JWE from h->t of its children's points
 * (packed, each x || y, 2 * h->p_len bytes): combined, then the JWE
 * decrypted with the key into out. Returns its length; -EBADMSG when the
 * points do not combine (two the same), else dirkey_decrypt's -errno
 * (-EBADMSG: not the key). */
long sss_open(const struct clevis_jwe *jwe, const struct sss_header *h, const unsigned char *points,
	      unsigned char *out, size_t size);
/* Lagrange interpolation at 0 of n points (each x || y, p_len bytes each,
 * big-endian) modulo p: the secret, p_len bytes, into secret. Returns 0,
 * -EINVAL (two points with the same x, a coordinate not below p, p too
 * small), -ENOMEM. */
int sss_combine(const unsigned char *p, size_t p_len, const unsigned char *points, size_t n,
		unsigned char *secret);

#endif
