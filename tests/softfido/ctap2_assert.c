/* ctap2_assert: authenticatorGetAssertion (CTAP 2.0 5.2) for credentials
 * in the allowList (no resident keys), with the hmac-secret extension
 * (CTAP 2.0 12.5): the output is HMAC-SHA-256(CredRandom, salt), sent
 * encrypted under the sharedSecret of the platform's key agreement. */
#include "tests/softfido/ctap2.h"

#include <string.h>

#include <openssl/crypto.h>

#include "tests/softfido/ctap2_authdata.h"
#include "tests/softfido/ctap2_cbor.h"
#include "tests/softfido/fidocred.h"
#include "tests/softfido/fidocrypto.h"

struct found {
	struct fidocred cred;
	const uint8_t *id;
	size_t idlen;
};

/* The first allowList entry that is this authenticator's credential for
 * the RP: 0, or -1 when none is. */
static int find_cred(struct ctap2 *c, const cbor_item_t *list, const uint8_t rpid_hash[32],
		     struct found *f)
{
	if (!list || !cbor_isa_array(list))
		return -1;
	for (size_t i = 0; i < cbor_array_size(list); i++) {
		cbor_item_t *d = cbor_array_get(list, i);

		/* The list keeps its item alive, so the ID stays valid. */
		f->id = ctap2_cbor_bytes(ctap2_cbor_get_text(d, "id"), &f->idlen);
		cbor_decref(&d);
		if (f->id && fidocred_open(&f->cred, c->state->master, rpid_hash, f->id, f->idlen) == 0)
			return 0;
	}
	return -1;
}

/* The hmac-secret input {1: keyAgreement, 2: saltEnc, 3: saltAuth}: the
 * encrypted output into enc (32 or 64 bytes); its length, or 0 and *st. */
static size_t hmac_secret(struct ctap2 *c, const cbor_item_t *in, const struct fidocred *cred,
			  uint8_t enc[64], uint8_t *st)
{
	uint8_t secret[32], salt[64], outp[64];
	size_t saltlen = 0, authlen = 0;
	const uint8_t *salt_enc = ctap2_cbor_bytes(ctap2_cbor_get(in, 2), &saltlen);
	const uint8_t *salt_auth = ctap2_cbor_bytes(ctap2_cbor_get(in, 3), &authlen);
	uint8_t mac[32];

	*st = CTAP2_ERR_MISSING_PARAMETER;
	if (!salt_enc || !salt_auth)
		return 0;
	*st = CTAP1_ERR_INVALID_PARAMETER;
	if (saltlen != 32 && saltlen != 64)
		return 0;
	if ((*st = ctap2_pin_shared(c, ctap2_cbor_get(in, 1), secret)) != CTAP2_OK)
		return 0;
	fidocrypto_hmac(secret, 32, salt_enc, saltlen, mac);
	*st = CTAP2_ERR_PIN_AUTH_INVALID;
	if (authlen != 16 || CRYPTO_memcmp(mac, salt_auth, 16))
		saltlen = 0;
	else if (fidocrypto_cbc(0, secret, salt_enc, saltlen, salt) < 0)
		saltlen = 0;
	for (size_t i = 0; i < saltlen; i += 32)
		fidocrypto_hmac(cred->cred_random, 32, salt + i, 32, outp + i);
	if (saltlen && fidocrypto_cbc(1, secret, outp, saltlen, enc) < 0)
		saltlen = 0;
	OPENSSL_cleanse(secret, sizeof(secret));
	OPENSSL_cleanse(outp, sizeof(outp));
	if (saltlen)
		*st = CTAP2_OK;
	return saltlen;
}

static cbor_item_t *hmac_ext(const uint8_t *enc, size_t len)
{
	cbor_item_t *m = cbor_new_definite_map(1);

	if (m && ctap2_cbor_put_text(m, "hmac-secret", cbor_build_bytestring(enc, len)) < 0)
		cbor_decref(&m);
	return m;
}

static cbor_item_t *response(const struct found *f, const struct ctap2_authdata *a, const uint8_t cdh[32])
{
	cbor_item_t *r = cbor_new_definite_map(3), *desc = cbor_new_definite_map(2);
	int ok = r && desc &&
		 ctap2_cbor_put_text(desc, "id", cbor_build_bytestring(f->id, f->idlen)) == 0 &&
		 ctap2_cbor_put_text(desc, "type", cbor_build_string("public-key")) == 0 &&
		 ctap2_cbor_put(r, 1, cbor_incref(desc)) == 0 &&
		 ctap2_cbor_put(r, 2, cbor_build_bytestring(a->buf, a->len)) == 0 &&
		 ctap2_cbor_put(r, 3, ctap2_sign(f->cred.key, a->buf, a->len, cdh)) == 0;

	if (desc)
		cbor_decref(&desc);
	if (!ok && r)
		cbor_decref(&r);
	return r;
}

/* The options: "up" (default true); no "uv", and "rk" has no meaning here. */
static uint8_t options(const cbor_item_t *opts, int *up)
{
	*up = 1;
	if (opts && !cbor_isa_map(opts))
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	if (ctap2_cbor_get_text(opts, "rk"))
		return CTAP2_ERR_INVALID_OPTION;
	if (ctap2_cbor_bool(ctap2_cbor_get_text(opts, "uv")) == 1)
		return CTAP2_ERR_UNSUPPORTED_OPTION;
	if (ctap2_cbor_bool(ctap2_cbor_get_text(opts, "up")) == 0)
		*up = 0;
	return CTAP2_OK;
}

static uint8_t sign_assertion(struct ctap2 *c, struct found *f, const uint8_t rpid_hash[32],
			      const uint8_t cdh[32], uint8_t flags, const cbor_item_t *hmac_in,
			      cbor_item_t **out)
{
	struct ctap2_authdata a;
	uint8_t enc[64], st = CTAP2_OK;
	size_t enclen = 0;
	uint32_t count;

	if (hmac_in && !(enclen = hmac_secret(c, hmac_in, &f->cred, enc, &st)))
		return st;
	if ((flags & CTAP2_FLAG_UP) && (st = c->presence(c->presence_arg)) != CTAP2_OK)
		return st;
	if (ctap2_count(c, &count) < 0)
		return CTAP1_ERR_OTHER;
	ctap2_authdata_start(&a, rpid_hash, (uint8_t)(flags | (enclen ? CTAP2_FLAG_ED : 0)), count);
	if (enclen)
		ctap2_authdata_cbor(&a, hmac_ext(enc, enclen));
	*out = a.overflow ? NULL : response(f, &a, cdh);
	return *out ? CTAP2_OK : CTAP1_ERR_OTHER;
}

uint8_t ctap2_assert_get(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out)
{
	size_t cdhlen = 0;
	const uint8_t *cdh = ctap2_cbor_bytes(ctap2_cbor_get(req, 2), &cdhlen);
	const cbor_item_t *rpid = ctap2_cbor_get(req, 1);
	const cbor_item_t *ext = ctap2_cbor_get(req, 4);
	uint8_t rpid_hash[32], st;
	struct found f;
	int up, uv;

	if (!cdh || !rpid)
		return CTAP2_ERR_MISSING_PARAMETER;
	if (!cbor_isa_string(rpid) || !cbor_string_is_definite(rpid) || (ext && !cbor_isa_map(ext)))
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	if (cdhlen != 32)
		return CTAP1_ERR_INVALID_PARAMETER;
	if ((st = options(ctap2_cbor_get(req, 5), &up)) != CTAP2_OK ||
	    (st = ctap2_pin_check(c, ctap2_cbor_get(req, 6), ctap2_cbor_get(req, 7), cdh, &uv)) != CTAP2_OK)
		return st;
	fidocrypto_sha256(cbor_string_handle(rpid), cbor_string_length(rpid), rpid_hash);
	if (find_cred(c, ctap2_cbor_get(req, 3), rpid_hash, &f) < 0)
		return CTAP2_ERR_NO_CREDENTIALS;
	st = sign_assertion(c, &f, rpid_hash, cdh, (uint8_t)((up ? CTAP2_FLAG_UP : 0) | (uv ? CTAP2_FLAG_UV : 0)),
			    ctap2_cbor_get_text(ext, "hmac-secret"), out);
	fidocred_free(&f.cred);
	return st;
}
