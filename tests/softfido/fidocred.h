/* fidocred: credential IDs that carry the credential itself. The ID is
 * nonce || AES-256-GCM(master key, credRandom || private key DER) || tag,
 * with the RP ID hash as associated data: no credential store, and an ID
 * opens only under the state file and the RP it was made for. */
#ifndef SOFTFIDO_FIDOCRED_H
#define SOFTFIDO_FIDOCRED_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#define FIDOCRED_ID_MAX 256

struct fidocred {
	EVP_PKEY *key;
	uint8_t cred_random[32];	/* the hmac-secret extension's key */
};

/* A new credential; its ID into id (FIDOCRED_ID_MAX), its length or -1. */
int fidocred_make(struct fidocred *c, const uint8_t master[32], const uint8_t rpid_hash[32],
		  uint8_t *id);
/* 0 when id is this authenticator's credential for rpid_hash, else -1. */
int fidocred_open(struct fidocred *c, const uint8_t master[32], const uint8_t rpid_hash[32],
		  const uint8_t *id, size_t len);
void fidocred_free(struct fidocred *c);

#endif
