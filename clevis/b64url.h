/* b64url: base64url without padding (RFC 4648 section 5), the encoding of
 * every binary field of JOSE (JWE parts, JWK coordinates). */
#ifndef LIFEBOAT_B64URL_H
#define LIFEBOAT_B64URL_H

#include <stddef.h>

/* Decode len characters of text into out (at most size bytes); padding
 * '=' at the end is accepted. Returns the decoded length, or -EINVAL for
 * a character outside the alphabet or an impossible length, -ENOSPC when
 * out is too small. */
long b64url_decode(const char *text, size_t len, unsigned char *out, size_t size);
/* Encode len bytes into out (NUL-terminated, no padding). Returns the
 * text's length, or -ENOSPC when out is too small. */
long b64url_encode(const unsigned char *data, size_t len, char *out, size_t size);

#endif
