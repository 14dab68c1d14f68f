/* ctap2_pin: authenticatorClientPIN, PIN protocol 1 (CTAP 2.0 5.5):
 * getRetries, getKeyAgreement, setPIN, changePIN, getPINToken, and the
 * pinAuth check
 * of the other commands. */
#include "tests/softfido/ctap2.h"

#include <string.h>

#include <openssl/crypto.h>

#include "tests/softfido/ctap2_cbor.h"
#include "tests/softfido/fidocrypto.h"

#define PIN_MIN 4
#define PIN_ENC 64		/* newPinEnc: the PIN padded to 64 bytes */
#define MISMATCH_MAX 3		/* then PIN_AUTH_BLOCKED until power-up */

uint8_t ctap2_pin_shared(struct ctap2 *c, const cbor_item_t *cose, uint8_t secret[32])
{
	EVP_PKEY *peer;
	int r;

	if (!cose)
		return CTAP2_ERR_MISSING_PARAMETER;
	if (!(peer = ctap2_cbor_cose_key(cose)))
		return CTAP1_ERR_INVALID_PARAMETER;
	r = fidocrypto_ecdh(c->ka, peer, secret);
	EVP_PKEY_free(peer);
	return r < 0 ? CTAP1_ERR_INVALID_PARAMETER : CTAP2_OK;
}

/* LEFT(HMAC-SHA-256(key, data), 16) == mac, in constant time. */
static int auth_ok(const uint8_t *key, size_t keylen, const uint8_t *data, size_t len,
		   const uint8_t *mac, size_t maclen)
{
	uint8_t h[32];
	int ok;

	fidocrypto_hmac(key, keylen, data, len, h);
	ok = maclen == 16 && CRYPTO_memcmp(h, mac, 16) == 0;
	OPENSSL_cleanse(h, sizeof(h));
	return ok;
}

uint8_t ctap2_pin_check(struct ctap2 *c, const cbor_item_t *pin_auth, const cbor_item_t *protocol,
			const uint8_t cdh[32], int *uv)
{
	const uint8_t *mac;
	size_t len;
	int64_t proto;

	*uv = 0;
	if (!pin_auth)
		return CTAP2_OK;
	if (!(mac = ctap2_cbor_bytes(pin_auth, &len)))
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	if (ctap2_cbor_int(protocol, &proto) < 0)
		return CTAP2_ERR_MISSING_PARAMETER;
	if (proto != 1)
		return CTAP2_ERR_PIN_AUTH_INVALID;
	if (!c->state->pin_set)
		return CTAP2_ERR_PIN_NOT_SET;
	if (!auth_ok(c->pin_token, sizeof(c->pin_token), cdh, 32, mac, len))
		return CTAP2_ERR_PIN_AUTH_INVALID;
	*uv = 1;
	return CTAP2_OK;
}

static uint8_t get_retries(struct ctap2 *c, cbor_item_t **out)
{
	cbor_item_t *m = cbor_new_definite_map(1);

	if (!m || ctap2_cbor_put(m, 3, ctap2_cbor_int_item(c->state->pin_retries)) < 0) {
		if (m)
			cbor_decref(&m);
		return CTAP1_ERR_OTHER;
	}
	*out = m;
	return CTAP2_OK;
}

static uint8_t get_key_agreement(struct ctap2 *c, cbor_item_t **out)
{
	cbor_item_t *m = cbor_new_definite_map(1);

	if (!m || ctap2_cbor_put(m, 1, ctap2_cbor_cose(c->ka, CTAP2_COSE_ECDH)) < 0) {
		if (m)
			cbor_decref(&m);
		return CTAP1_ERR_OTHER;
	}
	*out = m;
	return CTAP2_OK;
}

/* newPinEnc decrypted, checked (4 to 63 bytes, zero padded to 64) and
 * kept as LEFT(SHA-256(PIN), 16) with all the retries. */
static uint8_t store_pin(struct ctap2 *c, const uint8_t secret[32], const uint8_t *enc, size_t len)
{
	uint8_t pin[PIN_ENC];
	size_t pinlen = 0;
	uint8_t st = CTAP2_OK;

	if (len != PIN_ENC || fidocrypto_cbc(0, secret, enc, len, pin) < 0)
		return CTAP2_ERR_PIN_POLICY_VIOLATION;
	if ((pinlen = strnlen((const char *)pin, PIN_ENC)) < PIN_MIN || pinlen == PIN_ENC)
		st = CTAP2_ERR_PIN_POLICY_VIOLATION;
	else {
		uint8_t hash[32];

		fidocrypto_sha256(pin, pinlen, hash);
		memcpy(c->state->pin_hash, hash, 16);
		c->state->pin_set = 1;
		c->state->pin_retries = FIDOSTATE_PIN_RETRIES;
		if (fidostate_save(c->state) < 0)
			st = CTAP1_ERR_OTHER;
		OPENSSL_cleanse(hash, sizeof(hash));
	}
	OPENSSL_cleanse(pin, sizeof(pin));
	return st;
}

static uint8_t set_pin(struct ctap2 *c, const cbor_item_t *req)
{
	uint8_t secret[32];
	size_t maclen = 0, enclen = 0;
	const uint8_t *mac = ctap2_cbor_bytes(ctap2_cbor_get(req, 4), &maclen);
	const uint8_t *enc = ctap2_cbor_bytes(ctap2_cbor_get(req, 5), &enclen);
	uint8_t st;

	if (!mac || !enc)
		return CTAP2_ERR_MISSING_PARAMETER;
	if (c->state->pin_set)
		return CTAP2_ERR_NOT_ALLOWED;
	if ((st = ctap2_pin_shared(c, ctap2_cbor_get(req, 3), secret)) != CTAP2_OK)
		return st;
	st = auth_ok(secret, 32, enc, enclen, mac, maclen) ? store_pin(c, secret, enc, enclen)
							    : CTAP2_ERR_PIN_AUTH_INVALID;
	OPENSSL_cleanse(secret, sizeof(secret));
	return st;
}

/* A wrong PIN: a new key agreement key (the platform must ask again), and
 * the count towards PIN_AUTH_BLOCKED. */
static uint8_t pin_mismatch(struct ctap2 *c)
{
	EVP_PKEY *ka = fidocrypto_p256_new();

	if (ka) {
		EVP_PKEY_free(c->ka);
		c->ka = ka;
	}
	c->mismatches++;
	if (!c->state->pin_retries)
		return CTAP2_ERR_PIN_BLOCKED;
	if (c->mismatches >= MISMATCH_MAX)
		return CTAP2_ERR_PIN_AUTH_BLOCKED;
	return CTAP2_ERR_PIN_INVALID;
}

/* Whether the PIN can be tried now. */
static uint8_t may_try(const struct ctap2 *c)
{
	if (!c->state->pin_set)
		return CTAP2_ERR_PIN_NOT_SET;
	if (!c->state->pin_retries)
		return CTAP2_ERR_PIN_BLOCKED;
	if (c->mismatches >= MISMATCH_MAX)
		return CTAP2_ERR_PIN_AUTH_BLOCKED;
	return CTAP2_OK;
}

/* pinHashEnc against the PIN kept. The retry is spent before the check,
 * so pulling the key out in the middle gives no free guess. */
static uint8_t check_pin(struct ctap2 *c, const uint8_t secret[32], const uint8_t *enc, size_t len)
{
	uint8_t hash[16];

	c->state->pin_retries--;
	if (fidostate_save(c->state) < 0)
		return CTAP1_ERR_OTHER;
	if (len != 16 || fidocrypto_cbc(0, secret, enc, 16, hash) < 0 ||
	    CRYPTO_memcmp(hash, c->state->pin_hash, 16) != 0)
		return pin_mismatch(c);
	c->state->pin_retries = FIDOSTATE_PIN_RETRIES;
	c->mismatches = 0;
	return fidostate_save(c->state) < 0 ? CTAP1_ERR_OTHER : CTAP2_OK;
}

static uint8_t token_out(struct ctap2 *c, const uint8_t secret[32], cbor_item_t **out)
{
	uint8_t enc[sizeof(c->pin_token)];
	cbor_item_t *m = cbor_new_definite_map(1);

	if (!m || fidocrypto_cbc(1, secret, c->pin_token, sizeof(enc), enc) < 0 ||
	    ctap2_cbor_put(m, 2, cbor_build_bytestring(enc, sizeof(enc))) < 0) {
		if (m)
			cbor_decref(&m);
		return CTAP1_ERR_OTHER;
	}
	*out = m;
	return CTAP2_OK;
}

static uint8_t get_pin_token(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out)
{
	uint8_t secret[32];
	size_t len = 0;
	const uint8_t *enc = ctap2_cbor_bytes(ctap2_cbor_get(req, 6), &len);
	uint8_t st;

	if (!enc)
		return CTAP2_ERR_MISSING_PARAMETER;
	if ((st = may_try(c)) != CTAP2_OK ||
	    (st = ctap2_pin_shared(c, ctap2_cbor_get(req, 3), secret)) != CTAP2_OK)
		return st;
	if ((st = check_pin(c, secret, enc, len)) == CTAP2_OK)
		st = token_out(c, secret, out);
	OPENSSL_cleanse(secret, sizeof(secret));
	return st;
}

/* changePIN: pinAuth = LEFT(HMAC(sharedSecret, newPinEnc || pinHashEnc), 16). */
static uint8_t change_pin(struct ctap2 *c, const cbor_item_t *req)
{
	uint8_t secret[32];
	size_t maclen = 0, newlen = 0, oldlen = 0;
	const uint8_t *mac = ctap2_cbor_bytes(ctap2_cbor_get(req, 4), &maclen);
	const uint8_t *new_enc = ctap2_cbor_bytes(ctap2_cbor_get(req, 5), &newlen);
	const uint8_t *old_enc = ctap2_cbor_bytes(ctap2_cbor_get(req, 6), &oldlen);
	uint8_t st;

	if (!mac || !new_enc || !old_enc)
		return CTAP2_ERR_MISSING_PARAMETER;
	if ((st = may_try(c)) != CTAP2_OK ||
	    (st = ctap2_pin_shared(c, ctap2_cbor_get(req, 3), secret)) != CTAP2_OK)
		return st;
	if (newlen != PIN_ENC || oldlen != 16)
		st = CTAP2_ERR_PIN_POLICY_VIOLATION;
	else {
		uint8_t both[PIN_ENC + 16];

		memcpy(both, new_enc, PIN_ENC);
		memcpy(both + PIN_ENC, old_enc, 16);
		if (!auth_ok(secret, 32, both, sizeof(both), mac, maclen))
			st = CTAP2_ERR_PIN_AUTH_INVALID;
		else if ((st = check_pin(c, secret, old_enc, oldlen)) == CTAP2_OK)
			st = store_pin(c, secret, new_enc, newlen);
	}
	OPENSSL_cleanse(secret, sizeof(secret));
	return st;
}

uint8_t ctap2_pin_command(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out)
{
	int64_t proto, sub;

	if (ctap2_cbor_int(ctap2_cbor_get(req, 1), &proto) < 0 ||
	    ctap2_cbor_int(ctap2_cbor_get(req, 2), &sub) < 0)
		return CTAP2_ERR_MISSING_PARAMETER;
	if (proto != 1)
		return CTAP1_ERR_INVALID_PARAMETER;
	switch (sub) {
	case 1:
		return get_retries(c, out);
	case 2:
		return get_key_agreement(c, out);
	case 3:
		return set_pin(c, req);
	case 4:
		return change_pin(c, req);
	case 5:
		return get_pin_token(c, req, out);
	default:
		return CTAP1_ERR_INVALID_PARAMETER;
	}
}
