/* b64url: base64url encoding and decoding. */
#include "clevis/b64url.h"

#include <errno.h>

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int value_of(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	return c == '_' ? 63 : -1;
}

long b64url_decode(const char *text, size_t len, unsigned char *out, size_t size)
{
	unsigned int acc = 0, bits = 0;
	size_t n = 0;

	while (len && text[len - 1] == '=')
		len--;
	/* One character left over carries fewer than 8 bits: not an encoding. */
	if (len % 4 == 1)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		int v = value_of(text[i]);

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

long b64url_encode(const unsigned char *data, size_t len, char *out, size_t size)
{
	size_t n = 0;
	unsigned int acc = 0, bits = 0;

	for (size_t i = 0; i < len; i++) {
		acc = (acc << 8) | data[i];
		bits += 8;
		while (bits >= 6) {
			bits -= 6;
			if (n + 1 >= size)
				return -ENOSPC;
			out[n++] = alphabet[(acc >> bits) & 63];
		}
		acc &= (1u << bits) - 1;
	}
	if (bits) {
		if (n + 1 >= size)
			return -ENOSPC;
		out[n++] = alphabet[(acc << (6 - bits)) & 63];
	}
	if (n >= size)
		return -ENOSPC;
	out[n] = '\0';
	return (long)n;
}
