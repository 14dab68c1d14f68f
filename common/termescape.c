/* termescape: printable ASCII and valid UTF-8 as they are, the rest as \-escapes. */
#include "common/termescape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Code points that are valid UTF-8 but act on the terminal or hide text:
 * the C1 controls (0x9b is CSI), zero-width and bidirectional marks,
 * embeddings and isolates (text that reads in a different order than it is
 * stored), the line and paragraph separators, and the byte-order mark. */
static const struct { uint32_t first, last; } unsafe_ranges[] = {
	{ 0x0080, 0x009f },
	{ 0x200b, 0x200f },
	{ 0x2028, 0x202e },
	{ 0x2060, 0x206f },
	{ 0xfeff, 0xfeff },
	{ 0xfff9, 0xfffb },
};

static bool codepoint_unsafe(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(unsafe_ranges) / sizeof(unsafe_ranges[0]); i++)
		if (cp >= unsafe_ranges[i].first && cp <= unsafe_ranges[i].last)
			return true;
	return false;
}

/* RFC 3629's well-formed sequences by lead byte: the length, the lead's
 * payload bits, and the range of the second byte (narrower for some leads:
 * that is what rules out overlong forms, surrogates and code points above
 * U+10FFFF). Every later byte is 80..bf. */
static const struct utf8_lead {
	unsigned char first, last, len, mask, lo, hi;
} utf8_leads[] = {
	{ 0xc2, 0xdf, 2, 0x1f, 0x80, 0xbf },
	{ 0xe0, 0xe0, 3, 0x0f, 0xa0, 0xbf },
	{ 0xe1, 0xec, 3, 0x0f, 0x80, 0xbf },
	{ 0xed, 0xed, 3, 0x0f, 0x80, 0x9f },
	{ 0xee, 0xef, 3, 0x0f, 0x80, 0xbf },
	{ 0xf0, 0xf0, 4, 0x07, 0x90, 0xbf },
	{ 0xf1, 0xf3, 4, 0x07, 0x80, 0xbf },
	{ 0xf4, 0xf4, 4, 0x07, 0x80, 0x8f },
};

/* The length of the well-formed, safe UTF-8 sequence at s, or 0. */
static size_t utf8_safe_len(const unsigned char *s, size_t len)
{
	const struct utf8_lead *l = NULL;
	uint32_t cp;

	for (size_t i = 0; i < sizeof(utf8_leads) / sizeof(utf8_leads[0]); i++)
		if (s[0] >= utf8_leads[i].first && s[0] <= utf8_leads[i].last)
			l = &utf8_leads[i];
	if (!l || len < l->len || s[1] < l->lo || s[1] > l->hi)
		return 0;
	cp = s[0] & l->mask;
	for (size_t i = 1; i < l->len; i++) {
		if (i > 1 && (s[i] < 0x80 || s[i] > 0xbf))
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	return codepoint_unsafe(cp) ? 0 : l->len;
}

/* The escape for one byte that cannot be shown as it is: C's name for it
 * when it has one, else \xNN. */
static void byte_escape(unsigned char c, char out[5])
{
	static const char named[][2] = {
		{ '\a', 'a' }, { '\b', 'b' }, { '\t', 't' }, { '\n', 'n' },
		{ '\v', 'v' }, { '\f', 'f' }, { '\r', 'r' }, { '\\', '\\' },
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (c == (unsigned char)named[i][0]) {
			snprintf(out, 5, "\\%c", named[i][1]);
			return;
		}
	}
	snprintf(out, 5, "\\x%02x", c);
}

/* How many bytes at s[0..len) are shown as they are: one printable ASCII
 * byte (not a double quote when asked), a newline when kept, or a whole
 * safe UTF-8 sequence; 0 to escape. */
static size_t unit_plain_len(const unsigned char *s, size_t len, unsigned int flags)
{
	if (s[0] == '"' && (flags & TERM_ESCAPE_QUOTE))
		return 0;
	if (s[0] >= 0x20 && s[0] < 0x7f && s[0] != '\\')
		return 1;
	if (s[0] == '\n' && (flags & TERM_ESCAPE_KEEP_NEWLINE))
		return 1;
	return s[0] >= 0x80 ? utf8_safe_len(s, len) : 0;
}

size_t term_escape(char *dst, size_t cap, const void *src, size_t len, unsigned int flags)
{
	const unsigned char *s = src;
	size_t total = 0, written = 0, n;
	bool cut = false;

	for (size_t i = 0; i < len; i += n) {
		char esc[5];
		const char *unit = (const char *)s + i;
		size_t ulen = n = unit_plain_len(s + i, len - i, flags);

		if (n == 0) {
			byte_escape(s[i], esc);
			unit = esc;
			ulen = strlen(esc);
			n = 1;
		}
		/* Whole units only, so a cut never leaves half an escape. */
		cut = cut || written + ulen >= cap;
		if (!cut) {
			memcpy(dst + written, unit, ulen);
			written += ulen;
		}
		total += ulen;
	}
	if (cap > 0)
		dst[written] = '\0';
	return total;
}
