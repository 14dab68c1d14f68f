/* Fuzz target: common/base64.c's decoder, in both alphabets (authorized_keys
 * lines, clevis tokens' JOSE fields): what it decodes stays in its buffer,
 * and encodes back to text that decodes to the same bytes. */
#include <stdint.h>
#include <string.h>

#include "common/base64.h"

static void check(enum base64_alphabet alphabet, const uint8_t *data, size_t size)
{
	unsigned char out[256], again[256];
	char text[400];
	long n = base64_decode(alphabet, (const char *)data, size, out, sizeof(out));

	if (n > (long)sizeof(out) || (n >= 0 && (size_t)n > size))
		__builtin_trap();
	if (n < 0)
		return;
	if (base64_encode(alphabet, out, (size_t)n, text, sizeof(text)) < 0 ||
	    base64_decode(alphabet, text, strlen(text), again, sizeof(again)) != n ||
	    memcmp(out, again, (size_t)n))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(BASE64_STANDARD, data, size);
	check(BASE64_URL, data, size);
	return 0;
}
