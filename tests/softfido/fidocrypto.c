/* fidocrypto: OpenSSL 3 EVP calls for softfido (see fidocrypto.h). */
#include "tests/softfido/fidocrypto.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

int fidocrypto_random(uint8_t *buf, size_t len)
{
	return RAND_bytes(buf, (int)len) == 1 ? 0 : -1;
}

void fidocrypto_sha256(const uint8_t *data, size_t len, uint8_t out[32])
{
	SHA256(data, len, out);
}

void fidocrypto_hmac(const uint8_t *key, size_t keylen, const uint8_t *data, size_t len,
		     uint8_t out[32])
{
	unsigned int n = 32;

	HMAC(EVP_sha256(), key, (int)keylen, data, len, out, &n);
}

int fidocrypto_cbc(int encrypt, const uint8_t key[32], const uint8_t *in, size_t len, uint8_t *out)
{
	static const uint8_t iv[16];
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	if (!ctx || len % 16)
		return EVP_CIPHER_CTX_free(ctx), -1;
	ok = EVP_CipherInit_ex(ctx, EVP_aes_256_cbc(), NULL, key, iv, encrypt) == 1 &&
	     EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
	     EVP_CipherUpdate(ctx, out, &n, in, (int)len) == 1 && (size_t)n == len;
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

static int gcm(int encrypt, const uint8_t key[32], const uint8_t iv[12], const uint8_t *aad,
	       size_t aadlen, const uint8_t *in, size_t len, uint8_t *tag, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n = 0, ok;
	uint8_t end[16];

	ok = ctx && EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, iv, encrypt) == 1 &&
	     EVP_CipherUpdate(ctx, NULL, &n, aad, (int)aadlen) == 1 &&
	     EVP_CipherUpdate(ctx, out, &n, in, (int)len) == 1 && (size_t)n == len;
	if (ok && !encrypt)
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1;
	ok = ok && EVP_CipherFinal_ex(ctx, end, &n) == 1;
	if (ok && encrypt)
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

int fidocrypto_gcm_seal(const uint8_t key[32], const uint8_t iv[12], const uint8_t *aad, size_t aadlen,
			const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16])
{
	return gcm(1, key, iv, aad, aadlen, in, len, tag, out);
}

int fidocrypto_gcm_open(const uint8_t key[32], const uint8_t iv[12], const uint8_t *aad, size_t aadlen,
			const uint8_t *in, size_t len, const uint8_t tag[16], uint8_t *out)
{
	uint8_t t[16];

	memcpy(t, tag, 16);
	return gcm(0, key, iv, aad, aadlen, in, len, t, out);
}

EVP_PKEY *fidocrypto_p256_new(void)
{
	return EVP_EC_gen("P-256");
}

int fidocrypto_p256_point(EVP_PKEY *key, uint8_t out[FIDOCRYPTO_POINT_LEN])
{
	size_t n = 0;

	if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out,
					    FIDOCRYPTO_POINT_LEN, &n) != 1 ||
	    n != FIDOCRYPTO_POINT_LEN || out[0] != 0x04)
		return -1;
	return 0;
}

EVP_PKEY *fidocrypto_p256_from_point(const uint8_t x[32], const uint8_t y[32])
{
	uint8_t point[FIDOCRYPTO_POINT_LEN] = { 0x04 };
	char group[] = "prime256v1";
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *key = NULL;

	memcpy(point + 1, x, 32);
	memcpy(point + 33, y, 32);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point));
	params[2] = OSSL_PARAM_construct_end();
	if (!ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
		key = NULL;
	EVP_PKEY_CTX_free(ctx);
	return key;
}

int fidocrypto_sign(EVP_PKEY *key, const uint8_t *data, size_t len, uint8_t *sig, size_t cap)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t n = cap;
	int ok = ctx && EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
		 EVP_DigestSign(ctx, sig, &n, data, len) == 1;

	EVP_MD_CTX_free(ctx);
	return ok ? (int)n : -1;
}

int fidocrypto_ecdh(EVP_PKEY *mine, EVP_PKEY *peer, uint8_t secret[32])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(mine, NULL);
	uint8_t x[32];
	size_t n = sizeof(x);
	int ok = ctx && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
		 EVP_PKEY_derive(ctx, x, &n) == 1 && n == sizeof(x);

	EVP_PKEY_CTX_free(ctx);
	if (ok)
		fidocrypto_sha256(x, sizeof(x), secret);
	OPENSSL_cleanse(x, sizeof(x));
	return ok ? 0 : -1;
}

int fidocrypto_priv_der(EVP_PKEY *key, uint8_t *out, size_t cap)
{
	int n = i2d_PrivateKey(key, NULL);

	if (n <= 0 || (size_t)n > cap)
		return -1;
	return i2d_PrivateKey(key, &out);
}

EVP_PKEY *fidocrypto_priv_from_der(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;

	return d2i_PrivateKey(EVP_PKEY_EC, NULL, &p, (long)len);
}
