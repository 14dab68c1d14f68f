/* fidocred: sealing a credential into its own ID (see fidocred.h). */
#include "tests/softfido/fidocred.h"

#include <string.h>

#include <openssl/crypto.h>

#include "tests/softfido/fidocrypto.h"

#define NONCE 12
#define TAG 16
#define BODY_MAX (FIDOCRED_ID_MAX - NONCE - TAG)

int fidocred_make(struct fidocred *c, const uint8_t master[32], const uint8_t rpid_hash[32],
		  uint8_t *id)
{
	uint8_t body[BODY_MAX];
	int der;

	memset(c, 0, sizeof(*c));
	if (fidocrypto_random(c->cred_random, sizeof(c->cred_random)) < 0 ||
	    !(c->key = fidocrypto_p256_new()))
		return -1;
	memcpy(body, c->cred_random, 32);
	der = fidocrypto_priv_der(c->key, body + 32, sizeof(body) - 32);
	if (der < 0 || fidocrypto_random(id, NONCE) < 0 ||
	    fidocrypto_gcm_seal(master, id, rpid_hash, 32, body, 32 + (size_t)der, id + NONCE,
				id + NONCE + 32 + der) < 0) {
		OPENSSL_cleanse(body, sizeof(body));
		fidocred_free(c);
		return -1;
	}
	OPENSSL_cleanse(body, sizeof(body));
	return NONCE + 32 + der + TAG;
}

int fidocred_open(struct fidocred *c, const uint8_t master[32], const uint8_t rpid_hash[32],
		  const uint8_t *id, size_t len)
{
	uint8_t body[BODY_MAX];
	size_t n;

	memset(c, 0, sizeof(*c));
	if (len <= NONCE + 32 + TAG || len > FIDOCRED_ID_MAX)
		return -1;
	n = len - NONCE - TAG;
	if (fidocrypto_gcm_open(master, id, rpid_hash, 32, id + NONCE, n, id + len - TAG, body) < 0)
		return -1;
	memcpy(c->cred_random, body, 32);
	c->key = fidocrypto_priv_from_der(body + 32, n - 32);
	OPENSSL_cleanse(body, sizeof(body));
	if (!c->key) {
		fidocred_free(c);
		return -1;
	}
	return 0;
}

void fidocred_free(struct fidocred *c)
{
	EVP_PKEY_free(c->key);
	OPENSSL_cleanse(c, sizeof(*c));
}
