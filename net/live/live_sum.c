/* live_sum: hexadecimal hashes and sha256sum's checksum files. */
#include "net/live/live_sum.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "common/hexdigit.h"

int live_sum_from_hex(const char *text, size_t len, uint8_t out[SHA256_LEN])
{
	if (len != 2 * SHA256_LEN)
		return -EINVAL;
	for (size_t i = 0; i < SHA256_LEN; i++) {
		int hi = hexdigit_value(text[2 * i]), lo = hexdigit_value(text[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

void live_sum_to_hex(const uint8_t sum[SHA256_LEN], char out[LIVE_SUM_HEX])
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = digits[sum[i] >> 4];
		out[2 * i + 1] = digits[sum[i] & 15];
	}
	out[2 * SHA256_LEN] = '\0';
}

/* NAME (its directory dropped) is name. */
static bool names_image(const char *p, size_t len, const char *name)
{
	const char *base = p;

	for (size_t i = 0; i < len; i++)
		if (p[i] == '/')
			base = p + i + 1;
	len -= (size_t)(base - p);
	return len == strlen(name) && memcmp(base, name, len) == 0;
}

/* One line, without its newline: 1 when it gives name's hash, 0 when it
 * is for another file or says nothing, -EINVAL when malformed. */
static int sum_line(const char *p, size_t len, const char *name, uint8_t out[SHA256_LEN])
{
	const size_t hex = 2 * SHA256_LEN;

	if (len && p[len - 1] == '\r')
		len--;
	if (len == 0 || p[0] == '#')
		return 0;
	if (len < hex || live_sum_from_hex(p, hex, out) < 0)
		return -EINVAL;
	if (len == hex)
		return 1;
	/* Two characters: a space, then a space (text) or * (binary). */
	if (len < hex + 3 || p[hex] != ' ' || (p[hex + 1] != ' ' && p[hex + 1] != '*'))
		return -EINVAL;
	return names_image(p + hex + 2, len - hex - 2, name) ? 1 : 0;
}

int live_sum_parse(const char *text, size_t len, const char *name, uint8_t out[SHA256_LEN])
{
	uint8_t line_sum[SHA256_LEN];
	bool found = false;

	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		int r = sum_line(text, n, name, line_sum);

		if (r < 0)
			return r;
		if (r > 0 && found && memcmp(out, line_sum, SHA256_LEN) != 0)
			return -EINVAL;
		if (r > 0)
			memcpy(out, line_sum, SHA256_LEN);
		found = found || r > 0;
		text += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
	return found ? 0 : -ENOENT;
}
