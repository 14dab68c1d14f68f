/* fidocrypto: the few OpenSSL operations softfido needs (P-256 keys, ECDSA,
 * ECDH, HMAC, AES), behind calls that take and give plain byte arrays. */
#ifndef SOFTFIDO_FIDOCRYPTO_H
#define SOFTFIDO_FIDOCRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#define FIDOCRYPTO_POINT_LEN 65	/* 0x04 || x || y */

int fidocrypto_random(uint8_t *buf, size_t len);
void fidocrypto_sha256(const uint8_t *data, size_t len, uint8_t out[32]);
void fidocrypto_hmac(const uint8_t *key, size_t keylen, const uint8_t *data, size_t len,
		     uint8_t out[32]);
/* AES-256-CBC with a zero IV and no padding (CTAP2 PIN protocol 1); len a
 * multiple of 16. */
int fidocrypto_cbc(int encrypt, const uint8_t key[32], const uint8_t *in, size_t len, uint8_t *out);
/* AES-256-GCM; out gets len bytes, tag 16. Open returns -1 on a wrong tag. */
int fidocrypto_gcm_seal(const uint8_t key[32], const uint8_t iv[12], const uint8_t *aad, size_t aadlen,
			const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16]);
int fidocrypto_gcm_open(const uint8_t key[32], const uint8_t iv[12], const uint8_t *aad, size_t aadlen,
			const uint8_t *in, size_t len, const uint8_t tag[16], uint8_t *out);

EVP_PKEY *fidocrypto_p256_new(void);
/* The public point, uncompressed; 0 or -1. */
int fidocrypto_p256_point(EVP_PKEY *key, uint8_t out[FIDOCRYPTO_POINT_LEN]);
EVP_PKEY *fidocrypto_p256_from_point(const uint8_t x[32], const uint8_t y[32]);
/* DER signature over data (SHA-256); its length, or -1. */
int fidocrypto_sign(EVP_PKEY *key, const uint8_t *data, size_t len, uint8_t *sig, size_t cap);
/* SHA-256 of the shared point's x coordinate (PIN protocol 1). */
int fidocrypto_ecdh(EVP_PKEY *mine, EVP_PKEY *peer, uint8_t secret[32]);
/* The private key in DER and back. */
int fidocrypto_priv_der(EVP_PKEY *key, uint8_t *out, size_t cap);
EVP_PKEY *fidocrypto_priv_from_der(const uint8_t *der, size_t len);

#endif
