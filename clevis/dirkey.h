/* dirkey: the JWE decryption of clevis's "dir" JWEs (the tpm2, sss and
 * null pins: the content key is the pin's secret itself, RFC 7518 section
 * 4.5) and the AES-256-GCM step that every clevis JWE ends in. */
#ifndef LIFEBOAT_DIRKEY_H
#define LIFEBOAT_DIRKEY_H

#include <stddef.h>

#include "clevis/jwe.h"

/* A256GCM's key size. */
#define DIRKEY_CEK_LEN 32

/* Decrypt the JWE's ciphertext with the content key cek (key_len bytes),
 * the protected header as the additional data, into out (at most size
 * bytes). Returns the plaintext's length; -EINVAL for a key that is not
 * A256GCM's size, -ENOSPC, -EBADMSG when the tag does not match (another
 * key). */
long dirkey_decrypt(const struct clevis_jwe *jwe, const unsigned char *cek, size_t key_len,
		    unsigned char *out, size_t size);
/* The same with the key given as an oct JWK's text ({"kty":"oct","k":...},
 * what the tpm2 pin seals). Returns as dirkey_decrypt; -EINVAL for a JWK
 * that is not an oct key. */
long dirkey_decrypt_jwk(const struct clevis_jwe *jwe, const char *jwk, size_t len,
			unsigned char *out, size_t size);
/* Whether the header says "alg":"dir" with "enc":"A256GCM". */
int dirkey_header_ok(const struct clevis_jwe *jwe);

#endif
