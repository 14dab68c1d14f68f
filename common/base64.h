/* base64: the two alphabets of RFC 4648, both read by the project: the
 * standard one (section 4) of authorized_keys lines, and base64url
 * (section 5), the encoding of every binary field of JOSE (JWE parts, JWK
 * coordinates) in clevis tokens. */
#ifndef LIFEBOAT_BASE64_H
#define LIFEBOAT_BASE64_H

#include <stddef.h>

enum base64_alphabet {
	BASE64_STANDARD, /* + and /, padded with '=' to a multiple of 4 */
	BASE64_URL,      /* - and _, padding optional (JOSE leaves it out) */
};

/* Decode len characters of text into out (at most size bytes). Returns
 * the decoded length, or -EINVAL for a character outside the alphabet,
 * '=' anywhere but at the end, or an impossible length (standard text
 * must be padded), -ENOSPC when out is too small. */
long base64_decode(enum base64_alphabet alphabet, const char *text, size_t len,
		   unsigned char *out, size_t size);
/* Encode len bytes into out, NUL-terminated: standard text padded,
 * base64url without padding. Returns the text's length, or -ENOSPC when
 * out is too small. */
long base64_encode(enum base64_alphabet alphabet, const unsigned char *data, size_t len,
		   char *out, size_t size);

#endif
