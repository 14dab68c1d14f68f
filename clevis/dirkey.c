/* dirkey: AES-256-GCM decryption of a clevis JWE with OpenSSL, the content
 * key given directly or as an oct JWK. */
#include "clevis/dirkey.h"

#include <errno.h>
#include <json-c/json.h>
#include <openssl/evp.h>
#include <string.h>

#include "common/base64.h"

#define GCM_TAG_LEN 16

long dirkey_decrypt(const struct clevis_jwe *jwe, const unsigned char *cek, size_t key_len,
		    unsigned char *out, size_t size)
{
	EVP_CIPHER_CTX *c;
	int n = 0, fin = 0, ok;

	if (key_len != DIRKEY_CEK_LEN)
		return -EINVAL;
	if (jwe->ciphertext_len > size || jwe->ciphertext_len > 0x7fffffff)
		return -ENOSPC;
	c = EVP_CIPHER_CTX_new();
	ok = c && EVP_DecryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)jwe->iv_len, NULL) &&
	     EVP_DecryptInit_ex(c, NULL, NULL, cek, jwe->iv) &&
	     EVP_DecryptUpdate(c, NULL, &n, (const unsigned char *)jwe->protected_b64,
			       (int)strlen(jwe->protected_b64)) &&
	     EVP_DecryptUpdate(c, out, &n, jwe->ciphertext, (int)jwe->ciphertext_len) &&
	     jwe->tag_len == GCM_TAG_LEN &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)jwe->tag_len, (void *)jwe->tag) &&
	     EVP_DecryptFinal_ex(c, out + n, &fin) > 0;
	EVP_CIPHER_CTX_free(c);
	if (!ok) {
		explicit_bzero(out, size);
		return -EBADMSG;
	}
	return n + fin;
}

static const char *str_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

long dirkey_decrypt_jwk(const struct clevis_jwe *jwe, const char *jwk, size_t len,
			unsigned char *out, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o = NULL;
	unsigned char cek[64];
	const char *kty, *k;
	long n = -EINVAL;

	if (!tok)
		return -ENOMEM;
	if (len < 0x7fffffff)
		o = json_tokener_parse_ex(tok, jwk, (int)len);
	json_tokener_free(tok);
	kty = str_member(o, "kty");
	k = str_member(o, "k");
	if (kty && k && strcmp(kty, "oct") == 0)
		n = base64_decode(BASE64_URL, k, strlen(k), cek, sizeof(cek));
	if (n >= 0)
		n = dirkey_decrypt(jwe, cek, (size_t)n, out, size);
	else
		n = -EINVAL;
	explicit_bzero(cek, sizeof(cek));
	if (o)
		json_object_put(o);
	return n;
}

int dirkey_header_ok(const struct clevis_jwe *jwe)
{
	const char *alg = str_member(jwe->header, "alg"), *enc = str_member(jwe->header, "enc");

	return alg && enc && strcmp(alg, "dir") == 0 && strcmp(enc, "A256GCM") == 0;
}
