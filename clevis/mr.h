/* mr: the McCallum-Relyea exchange of Tang, the client's side, and the
 * JWE decryption it ends in (ECDH-ES with the Concat KDF, A256GCM).
 *
 * At binding, clevis made an ephemeral key c, kept C = cG in the JWE
 * header ("epk") and encrypted with the ECDH secret K = cS, S the
 * server's exchange key ("kid" names it in the advertisement the header
 * carries). To recover K without the server learning it, the client picks
 * a random e, sends X = C + eG, gets back Y = sX from the server, and
 * computes K = Y - eS. The server sees only X, which is random.
 */
#ifndef LIFEBOAT_MR_H
#define LIFEBOAT_MR_H

#include <stddef.h>

#include "clevis/jwe.h"

/* Sends the JWK text request to the server's /rec/KID and puts the JWK
 * it answered into reply (NUL-terminated). Returns 0 or -errno; a failure
 * is described by the exchanger itself. */
typedef int (*mr_exchange_fn)(const char *kid, const char *request, char *reply,
			      size_t size, void *ctx);

/* Recover the plaintext of a tang-pin JWE into out (at most size bytes).
 * Returns its length; -EINVAL for a header that is not a tang JWE this
 * can use (why says what), -EBADMSG when the server's answer does not
 * decrypt it (another server key: the binding is stale), the exchanger's
 * -errno, or -ENOMEM. */
long mr_recover(const struct clevis_jwe *jwe, mr_exchange_fn exchange, void *ctx,
		unsigned char *out, size_t size, char *why, size_t why_size);

/* mr_recover in two halves, so that several servers can be asked at once
 * (clevis/pin.c): mr_begin makes the request (the blinded key, a JWK's
 * text) and says which server key it is for; mr_finish takes the server's
 * answer. The exchange's secret e stays in the pending state, cleared by
 * mr_pending_free. */
#define MR_REPLY_MAX 4096
struct mr_pending;
/* Returns 0 with *out set, or mr_recover's -EINVAL (why says) or -ENOMEM.
 * why (kept by the state: mr_finish writes it too) and jwe must outlive it. */
int mr_begin(const struct clevis_jwe *jwe, struct mr_pending **out, char *why, size_t why_size);
const char *mr_pending_kid(const struct mr_pending *p);
const char *mr_pending_request(const struct mr_pending *p);
/* The plaintext from the server's answer (a JWK, NUL-terminated): its
 * length, or -EBADMSG (why says), -ENOSPC, -ENOMEM. */
long mr_finish(struct mr_pending *p, const char *reply, unsigned char *out, size_t size);
void mr_pending_free(struct mr_pending *p);

#endif
