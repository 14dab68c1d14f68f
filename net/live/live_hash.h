/* live_hash: SHA-256 over a stream, for checking a live root's image while
 * it arrives (no second pass over it), by OpenSSL's libcrypto opened at run
 * time (dlopen): the init links no crypto library, and an image built with
 * --live carries libcrypto anyway, as libcurl's https links it
 * (gen/feature/live_pack.c). */
#ifndef LIFEBOAT_NET_LIVE_LIVE_HASH_H
#define LIFEBOAT_NET_LIVE_LIVE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

#include "net/live/live_sum.h"

/* libcrypto's digest functions, typed as openssl/evp.h declares them. */
struct live_hash_fn {
	__typeof__(EVP_MD_CTX_new) *ctx_new;
	__typeof__(EVP_MD_CTX_free) *ctx_free;
	__typeof__(EVP_sha256) *sha256;
	__typeof__(EVP_DigestInit_ex) *init;
	__typeof__(EVP_DigestUpdate) *update;
	__typeof__(EVP_DigestFinal_ex) *final;
};

/* A hash under way. A zeroed one may be given to live_hash_free. */
struct live_hash {
	struct live_hash_fn fn;
	EVP_MD_CTX *ctx;
	bool failed;                 /* libcrypto refused a step: live_hash_final says so */
};

/* Open the library soname (LAYOUT_LIBCRYPTO) and start a hash. Returns 0;
 * -ELIBACC when it cannot be loaded or lacks one of the functions (why:
 * dlerror's text, or "SONAME has no NAME"); -ENOMEM; -EIO when libcrypto
 * will not start a SHA-256 digest. End it with live_hash_free, also after
 * a failure. */
int live_hash_start(struct live_hash *h, const char *soname, char *why, size_t why_size);
/* From nothing again, as a transfer that starts over needs. */
void live_hash_restart(struct live_hash *h);
void live_hash_update(struct live_hash *h, const void *data, size_t len);
/* The hash of what came since the (re)start. Returns 0, or -EIO when
 * libcrypto failed a step on the way (out is then not set). */
int live_hash_final(struct live_hash *h, uint8_t out[SHA256_LEN]);
void live_hash_free(struct live_hash *h);

#endif
