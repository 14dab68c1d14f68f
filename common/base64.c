/* base64: encoding and decoding in either alphabet of RFC 4648. */
#include "common/base64.h"

#include <errno.h>

static const char *const alphabets[] = {
	[BASE64_STANDARD] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	[BASE64_URL] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
};

static int value_of(enum base64_alphabet alphabet, char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == alphabets[alphabet][62])
		return 62;
	return c == alphabets[alphabet][63] ? 63 : -1;
}

/* The length of text without its padding, or -EINVAL when the padding is
 * not what the alphabet asks for. */
static long unpadded_length(enum base64_alphabet alphabet, const char *text, size_t len)
{
	size_t n = len;

	while (n && len - n < 2 && text[n - 1] == '=')
		n--;
	if (alphabet == BASE64_STANDARD && len % 4)
		return -EINVAL;
	/* One character left over carries fewer than 8 bits: not an encoding. */
	return n % 4 == 1 ? -EINVAL : (long)n;
}

long base64_decode(enum base64_alphabet alphabet, const char *text, size_t len,
		   unsigned char *out, size_t size)
{
	unsigned int acc = 0, bits = 0;
	long chars = unpadded_length(alphabet, text, len);
	size_t n = 0;

	if (chars < 0)
		return chars;
	for (long i = 0; i < chars; i++) {
		int v = value_of(alphabet, text[i]);

		if (v < 0)
			return -EINVAL;
		acc = (acc << 6) | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n >= size)
				return -ENOSPC;
			out[n++] = (unsigned char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	return (long)n;
}

long base64_encode(enum base64_alphabet alphabet, const unsigned char *data, size_t len,
		   char *out, size_t size)
{
	const char *digits = alphabets[alphabet];
	size_t n = 0;
	unsigned int acc = 0, bits = 0;

	for (size_t i = 0; i < len; i++) {
		acc = (acc << 8) | data[i];
		bits += 8;
		while (bits >= 6) {
			bits -= 6;
			if (n + 1 >= size)
				return -ENOSPC;
			out[n++] = digits[(acc >> bits) & 63];
		}
		acc &= (1u << bits) - 1;
	}
	if (bits) {
		if (n + 1 >= size)
			return -ENOSPC;
		out[n++] = digits[(acc << (6 - bits)) & 63];
	}
	while (alphabet == BASE64_STANDARD && n % 4) {
		if (n + 1 >= size)
			return -ENOSPC;
		out[n++] = '=';
	}
	if (n >= size)
		return -ENOSPC;
	out[n] = '\0';
	return (long)n;
}
