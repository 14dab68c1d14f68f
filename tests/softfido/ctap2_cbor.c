/* ctap2_cbor: libcbor helpers for the CTAP2 commands (see ctap2_cbor.h). */
#include "tests/softfido/ctap2_cbor.h"

#include <string.h>

#include "tests/softfido/fidocrypto.h"

/* Every item a container claims is an item of its own in the buffer, one
 * byte at least: all the claims together cannot pass the buffer's length. */
struct sane {
	size_t budget;
	int bad;
};

static void claim(struct sane *s, size_t items)
{
	if (items > s->budget)
		s->bad = 1;
	else
		s->budget -= items;
}

static void array_start(void *ctx, size_t n)
{
	claim(ctx, n);
}

static void map_start(void *ctx, size_t n)
{
	claim(ctx, n);
	claim(ctx, n);
}

int ctap2_cbor_sane(const uint8_t *buf, size_t len)
{
	struct cbor_callbacks cb = cbor_empty_callbacks;
	struct sane s = { len, 0 };
	size_t off = 0;

	cb.array_start = array_start;
	cb.map_start = map_start;
	while (off < len) {
		struct cbor_decoder_result r = cbor_stream_decode(buf + off, len - off, &cb, &s);

		if (r.status != CBOR_DECODER_FINISHED || !r.read || s.bad)
			return -1;
		off += r.read;
	}
	return 0;
}

int ctap2_cbor_int(const cbor_item_t *item, int64_t *value)
{
	uint64_t v;

	if (!item || (!cbor_isa_uint(item) && !cbor_isa_negint(item)))
		return -1;
	v = cbor_get_int(item);
	if (v > INT64_MAX)
		return -1;
	*value = cbor_isa_uint(item) ? (int64_t)v : -1 - (int64_t)v;
	return 0;
}

cbor_item_t *ctap2_cbor_get(const cbor_item_t *map, int64_t key)
{
	struct cbor_pair *pairs;
	int64_t k;

	if (!map || !cbor_isa_map(map))
		return NULL;
	pairs = cbor_map_handle(map);
	for (size_t i = 0; i < cbor_map_size(map); i++)
		if (ctap2_cbor_int(pairs[i].key, &k) == 0 && k == key)
			return pairs[i].value;
	return NULL;
}

int ctap2_cbor_text_is(const cbor_item_t *item, const char *s)
{
	size_t n = strlen(s);

	return item && cbor_isa_string(item) && cbor_string_is_definite(item) &&
	       cbor_string_length(item) == n && !memcmp(cbor_string_handle(item), s, n);
}

cbor_item_t *ctap2_cbor_get_text(const cbor_item_t *map, const char *key)
{
	struct cbor_pair *pairs;

	if (!map || !cbor_isa_map(map))
		return NULL;
	pairs = cbor_map_handle(map);
	for (size_t i = 0; i < cbor_map_size(map); i++)
		if (ctap2_cbor_text_is(pairs[i].key, key))
			return pairs[i].value;
	return NULL;
}

const uint8_t *ctap2_cbor_bytes(const cbor_item_t *item, size_t *len)
{
	if (!item || !cbor_isa_bytestring(item) || !cbor_bytestring_is_definite(item))
		return NULL;
	*len = cbor_bytestring_length(item);
	return *len ? cbor_bytestring_handle(item) : (const uint8_t *)"";
}

int ctap2_cbor_bool(const cbor_item_t *item)
{
	if (!item || !cbor_isa_float_ctrl(item) || !cbor_is_bool(item))
		return -1;
	return cbor_get_bool(item) ? 1 : 0;
}

/* The shortest encoding (canonical CBOR): libfido2 takes map keys only as
 * one-byte integers. */
cbor_item_t *ctap2_cbor_int_item(int64_t v)
{
	uint64_t u = v >= 0 ? (uint64_t)v : (uint64_t)(-1 - v);
	cbor_item_t *item;

	if (u <= UINT8_MAX)
		item = v >= 0 ? cbor_build_uint8((uint8_t)u) : cbor_build_negint8((uint8_t)u);
	else if (u <= UINT16_MAX)
		item = v >= 0 ? cbor_build_uint16((uint16_t)u) : cbor_build_negint16((uint16_t)u);
	else if (u <= UINT32_MAX)
		item = v >= 0 ? cbor_build_uint32((uint32_t)u) : cbor_build_negint32((uint32_t)u);
	else
		item = v >= 0 ? cbor_build_uint64(u) : cbor_build_negint64(u);
	return item;
}

static int put(cbor_item_t *map, cbor_item_t *key, cbor_item_t *value)
{
	int ok = key && value && cbor_map_add(map, (struct cbor_pair){ .key = key, .value = value });

	if (key)
		cbor_decref(&key);
	if (value)
		cbor_decref(&value);
	return ok ? 0 : -1;
}

int ctap2_cbor_put(cbor_item_t *map, int64_t key, cbor_item_t *value)
{
	return put(map, ctap2_cbor_int_item(key), value);
}

int ctap2_cbor_put_text(cbor_item_t *map, const char *key, cbor_item_t *value)
{
	return put(map, cbor_build_string(key), value);
}

cbor_item_t *ctap2_cbor_cose(EVP_PKEY *key, int64_t alg)
{
	uint8_t point[FIDOCRYPTO_POINT_LEN];
	cbor_item_t *cose;

	if (fidocrypto_p256_point(key, point) < 0 || !(cose = cbor_new_definite_map(5)))
		return NULL;
	/* Canonical CBOR order: 1, 3, -1, -2, -3. */
	if (ctap2_cbor_put(cose, 1, ctap2_cbor_int_item(2)) < 0 ||	/* kty: EC2 */
	    ctap2_cbor_put(cose, 3, ctap2_cbor_int_item(alg)) < 0 ||
	    ctap2_cbor_put(cose, -1, ctap2_cbor_int_item(1)) < 0 ||	/* crv: P-256 */
	    ctap2_cbor_put(cose, -2, cbor_build_bytestring(point + 1, 32)) < 0 ||
	    ctap2_cbor_put(cose, -3, cbor_build_bytestring(point + 33, 32)) < 0) {
		cbor_decref(&cose);
		return NULL;
	}
	return cose;
}

EVP_PKEY *ctap2_cbor_cose_key(const cbor_item_t *cose)
{
	int64_t kty, crv;
	size_t xl = 0, yl = 0;
	const uint8_t *x = ctap2_cbor_bytes(ctap2_cbor_get(cose, -2), &xl);
	const uint8_t *y = ctap2_cbor_bytes(ctap2_cbor_get(cose, -3), &yl);

	if (ctap2_cbor_int(ctap2_cbor_get(cose, 1), &kty) < 0 || kty != 2 ||
	    ctap2_cbor_int(ctap2_cbor_get(cose, -1), &crv) < 0 || crv != 1 ||
	    !x || !y || xl != 32 || yl != 32)
		return NULL;
	return fidocrypto_p256_from_point(x, y);
}
