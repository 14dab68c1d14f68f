/* ctap2: the command dispatch and authenticatorGetInfo (see ctap2.h). */
#include "tests/softfido/ctap2.h"

#include <string.h>

#include <openssl/crypto.h>

#include "tests/softfido/ctap2_cbor.h"
#include "tests/softfido/fidocrypto.h"

/* softfido's AAGUID: "lifeboatsoftfido", a test authenticator's name. */
const uint8_t ctap2_aaguid[16] = "lifeboatsoftfido";

int ctap2_init(struct ctap2 *c, struct fidostate *state, ctap2_presence_fn *presence, void *arg)
{
	memset(c, 0, sizeof(*c));
	c->state = state;
	c->presence = presence;
	c->presence_arg = arg;
	if (!(c->ka = fidocrypto_p256_new()) ||
	    fidocrypto_random(c->pin_token, sizeof(c->pin_token)) < 0)
		return -1;
	return 0;
}

void ctap2_free(struct ctap2 *c)
{
	EVP_PKEY_free(c->ka);
	OPENSSL_cleanse(c, sizeof(*c));
}

static cbor_item_t *text_array(const char *const *words, size_t n)
{
	cbor_item_t *a = cbor_new_definite_array(n);

	for (size_t i = 0; a && i < n; i++) {
		cbor_item_t *s = cbor_build_string(words[i]);

		if (!s || !cbor_array_push(a, s)) {
			if (s)
				cbor_decref(&s);
			cbor_decref(&a);
			return NULL;
		}
		cbor_decref(&s);
	}
	return a;
}

static uint8_t get_info(struct ctap2 *c, cbor_item_t **out)
{
	static const char *const versions[] = { "FIDO_2_0" };
	static const char *const extensions[] = { "hmac-secret" };
	cbor_item_t *info = cbor_new_definite_map(6);
	cbor_item_t *options = cbor_new_definite_map(4);
	cbor_item_t *protocols = cbor_new_definite_array(1);
	cbor_item_t *one = cbor_build_uint8(1);
	int ok = info && options && protocols && one && cbor_array_push(protocols, one);

	if (one)
		cbor_decref(&one);
	/* Canonical order: shorter keys first, then bytewise. */
	ok = ok && ctap2_cbor_put_text(options, "rk", cbor_build_bool(false)) == 0 &&
	     ctap2_cbor_put_text(options, "up", cbor_build_bool(true)) == 0 &&
	     ctap2_cbor_put_text(options, "plat", cbor_build_bool(false)) == 0 &&
	     ctap2_cbor_put_text(options, "clientPin", cbor_build_bool(c->state->pin_set)) == 0;
	ok = ok && ctap2_cbor_put(info, 1, text_array(versions, 1)) == 0 &&
	     ctap2_cbor_put(info, 2, text_array(extensions, 1)) == 0 &&
	     ctap2_cbor_put(info, 3, cbor_build_bytestring(ctap2_aaguid, 16)) == 0 &&
	     ctap2_cbor_put(info, 4, cbor_incref(options)) == 0 &&
	     ctap2_cbor_put(info, 5, cbor_build_uint16(1200)) == 0 &&
	     ctap2_cbor_put(info, 6, cbor_incref(protocols)) == 0;
	if (options)
		cbor_decref(&options);
	if (protocols)
		cbor_decref(&protocols);
	if (!ok) {
		if (info)
			cbor_decref(&info);
		return CTAP1_ERR_OTHER;
	}
	*out = info;
	return CTAP2_OK;
}

cbor_item_t *ctap2_sign(EVP_PKEY *key, const uint8_t *auth, size_t len, const uint8_t cdh[32])
{
	uint8_t data[1024], sig[80];
	int n;

	if (len > sizeof(data) - 32)
		return NULL;
	memcpy(data, auth, len);
	memcpy(data + len, cdh, 32);
	n = fidocrypto_sign(key, data, len + 32, sig, sizeof(sig));
	return n < 0 ? NULL : cbor_build_bytestring(sig, (size_t)n);
}

int ctap2_count(struct ctap2 *c, uint32_t *count)
{
	*count = ++c->state->counter;
	return fidostate_save(c->state);
}

static uint8_t run(struct ctap2 *c, uint8_t cmd, const cbor_item_t *req, cbor_item_t **out)
{
	switch (cmd) {
	case CTAP2_GET_INFO:
		return get_info(c, out);
	case CTAP2_MAKE_CREDENTIAL:
		return ctap2_make_credential(c, req, out);
	case CTAP2_GET_ASSERTION:
		return ctap2_assert_get(c, req, out);
	case CTAP2_CLIENT_PIN:
		return ctap2_pin_command(c, req, out);
	default:
		return CTAP1_ERR_INVALID_COMMAND;
	}
}

size_t ctap2_request(void *arg, const uint8_t *req, size_t len, uint8_t *resp, size_t cap)
{
	struct ctap2 *c = arg;
	struct cbor_load_result res;
	cbor_item_t *params = NULL, *out = NULL;
	uint8_t status;
	size_t n = 0;

	if (len > 1) {
		if (ctap2_cbor_sane(req + 1, len - 1) == 0)
			params = cbor_load(req + 1, len - 1, &res);
		if (!params || res.read != len - 1) {
			resp[0] = CTAP2_ERR_INVALID_CBOR;
			goto done;
		}
		if (!cbor_isa_map(params)) {
			resp[0] = CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
			goto done;
		}
	}
	status = run(c, req[0], params, &out);
	if (status == CTAP2_OK && out && !(n = cbor_serialize(out, resp + 1, cap - 1)))
		status = CTAP1_ERR_OTHER;
	resp[0] = status;
done:
	if (params)
		cbor_decref(&params);
	if (out)
		cbor_decref(&out);
	return resp[0] == CTAP2_OK ? 1 + n : 1;
}
