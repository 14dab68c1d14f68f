/* ctap2_make: authenticatorMakeCredential (CTAP 2.0 5.1): an ES256
 * credential sealed into its ID (fidocred.c), "packed" self attestation,
 * the hmac-secret extension. */
#include "tests/softfido/ctap2.h"

#include <string.h>

#include "tests/softfido/ctap2_authdata.h"
#include "tests/softfido/ctap2_cbor.h"
#include "tests/softfido/fidocred.h"
#include "tests/softfido/fidocrypto.h"

/* pubKeyCredParams lists ES256 with type "public-key". */
static int has_es256(const cbor_item_t *params)
{
	int64_t alg;

	if (!params || !cbor_isa_array(params))
		return 0;
	for (size_t i = 0; i < cbor_array_size(params); i++) {
		cbor_item_t *p = cbor_array_get(params, i);
		int ok = ctap2_cbor_text_is(ctap2_cbor_get_text(p, "type"), "public-key") &&
			 ctap2_cbor_int(ctap2_cbor_get_text(p, "alg"), &alg) == 0 &&
			 alg == CTAP2_COSE_ES256;

		cbor_decref(&p);
		if (ok)
			return 1;
	}
	return 0;
}

/* One of excludeList's IDs is a credential of this authenticator and RP. */
static int excluded(struct ctap2 *c, const cbor_item_t *list, const uint8_t rpid_hash[32])
{
	int found = 0;

	if (!list || !cbor_isa_array(list))
		return 0;
	for (size_t i = 0; !found && i < cbor_array_size(list); i++) {
		cbor_item_t *d = cbor_array_get(list, i);
		struct fidocred cred;
		size_t len = 0;
		const uint8_t *id = ctap2_cbor_bytes(ctap2_cbor_get_text(d, "id"), &len);

		if (id && fidocred_open(&cred, c->state->master, rpid_hash, id, len) == 0) {
			fidocred_free(&cred);
			found = 1;
		}
		cbor_decref(&d);
	}
	return found;
}

static cbor_item_t *hmac_ext(void)
{
	cbor_item_t *m = cbor_new_definite_map(1);

	if (m && ctap2_cbor_put_text(m, "hmac-secret", cbor_build_bool(true)) < 0)
		cbor_decref(&m);
	return m;
}

static cbor_item_t *attestation(struct ctap2_authdata *a, EVP_PKEY *key, const uint8_t cdh[32])
{
	cbor_item_t *att = cbor_new_definite_map(3), *stmt = cbor_new_definite_map(2);
	int ok = att && stmt &&
		 ctap2_cbor_put_text(stmt, "alg", ctap2_cbor_int_item(CTAP2_COSE_ES256)) == 0 &&
		 ctap2_cbor_put_text(stmt, "sig", ctap2_sign(key, a->buf, a->len, cdh)) == 0 &&
		 ctap2_cbor_put(att, 1, cbor_build_string("packed")) == 0 &&
		 ctap2_cbor_put(att, 2, cbor_build_bytestring(a->buf, a->len)) == 0 &&
		 ctap2_cbor_put(att, 3, cbor_incref(stmt)) == 0;

	if (stmt)
		cbor_decref(&stmt);
	if (!ok && att)
		cbor_decref(&att);
	return att;
}

static uint8_t create(struct ctap2 *c, const uint8_t rpid_hash[32], const uint8_t cdh[32],
		      uint8_t flags, cbor_item_t **out)
{
	struct ctap2_authdata a;
	struct fidocred cred;
	uint8_t id[FIDOCRED_ID_MAX], be[2];
	uint32_t count;
	int len = fidocred_make(&cred, c->state->master, rpid_hash, id);

	if (len < 0)
		return CTAP1_ERR_OTHER;
	if (ctap2_count(c, &count) < 0) {
		fidocred_free(&cred);
		return CTAP1_ERR_OTHER;
	}
	be[0] = (uint8_t)(len >> 8);
	be[1] = (uint8_t)len;
	ctap2_authdata_start(&a, rpid_hash, flags, count);
	ctap2_authdata_add(&a, ctap2_aaguid, sizeof(ctap2_aaguid));
	ctap2_authdata_add(&a, be, 2);
	ctap2_authdata_add(&a, id, (size_t)len);
	ctap2_authdata_cbor(&a, ctap2_cbor_cose(cred.key, CTAP2_COSE_ES256));
	if (flags & CTAP2_FLAG_ED)
		ctap2_authdata_cbor(&a, hmac_ext());
	*out = a.overflow ? NULL : attestation(&a, cred.key, cdh);
	fidocred_free(&cred);
	return *out ? CTAP2_OK : CTAP1_ERR_OTHER;
}

/* The options map: no resident keys, no built-in user verification. */
static uint8_t check_options(const cbor_item_t *options)
{
	if (options && !cbor_isa_map(options))
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	if (ctap2_cbor_bool(ctap2_cbor_get_text(options, "rk")) == 1 ||
	    ctap2_cbor_bool(ctap2_cbor_get_text(options, "uv")) == 1)
		return CTAP2_ERR_UNSUPPORTED_OPTION;
	if (ctap2_cbor_bool(ctap2_cbor_get_text(options, "up")) == 0)
		return CTAP2_ERR_INVALID_OPTION;
	return CTAP2_OK;
}

uint8_t ctap2_make_credential(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out)
{
	size_t cdhlen = 0;
	const uint8_t *cdh = ctap2_cbor_bytes(ctap2_cbor_get(req, 1), &cdhlen);
	const cbor_item_t *rpid = ctap2_cbor_get_text(ctap2_cbor_get(req, 2), "id");
	const cbor_item_t *user = ctap2_cbor_get(req, 3);
	const cbor_item_t *pin_auth = ctap2_cbor_get(req, 8);
	uint8_t rpid_hash[32], flags = CTAP2_FLAG_UP | CTAP2_FLAG_AT, st;
	int uv;

	if (!cdh || !rpid || !user || !ctap2_cbor_get(req, 4))
		return CTAP2_ERR_MISSING_PARAMETER;
	if (!cbor_isa_string(rpid) || !cbor_string_is_definite(rpid) || !cbor_isa_map(user))
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	if (cdhlen != 32)
		return CTAP1_ERR_INVALID_PARAMETER;
	if (!has_es256(ctap2_cbor_get(req, 4)))
		return CTAP2_ERR_UNSUPPORTED_ALGORITHM;
	if ((st = check_options(ctap2_cbor_get(req, 7))) != CTAP2_OK)
		return st;
	fidocrypto_sha256(cbor_string_handle(rpid), cbor_string_length(rpid), rpid_hash);
	/* An empty pinAuth asks only for a touch (which device is it?). */
	if (pin_auth && cbor_isa_bytestring(pin_auth) && !cbor_bytestring_length(pin_auth)) {
		st = c->presence(c->presence_arg);
		return st ? st : c->state->pin_set ? CTAP2_ERR_PIN_INVALID : CTAP2_ERR_PIN_NOT_SET;
	}
	if ((st = ctap2_pin_check(c, pin_auth, ctap2_cbor_get(req, 9), cdh, &uv)) != CTAP2_OK)
		return st;
	if (c->state->pin_set && !uv)
		return CTAP2_ERR_PIN_REQUIRED;
	if (excluded(c, ctap2_cbor_get(req, 5), rpid_hash)) {
		st = c->presence(c->presence_arg);
		return st ? st : CTAP2_ERR_CREDENTIAL_EXCLUDED;
	}
	if ((st = c->presence(c->presence_arg)) != CTAP2_OK)
		return st;
	if (uv)
		flags |= CTAP2_FLAG_UV;
	if (ctap2_cbor_bool(ctap2_cbor_get_text(ctap2_cbor_get(req, 6), "hmac-secret")) == 1)
		flags |= CTAP2_FLAG_ED;
	return create(c, rpid_hash, cdh, flags, out);
}
