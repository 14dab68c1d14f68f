/* psf: PC Screen Font files, PSF1 and PSF2, written from the format as
 * kbd's psf.h and the kernel's console describe it:
 *
 * PSF1: 2 magic bytes 36 04, a mode byte (1: 512 glyphs instead of 256;
 *   2 or 4: a Unicode table follows the glyphs), the glyph height in
 *   bytes; glyphs 8 pixels wide, one byte a row. The table gives each
 *   glyph in turn its code points as 16-bit little-endian values, ended
 *   by FFFF; FFFE starts the glyph's sequences (several code points drawn
 *   as one), up to the FFFF.
 * PSF2: magic 72 b5 4a 86, then 32-bit little-endian version (0), header
 *   size, flags (1: a Unicode table), glyph count, bytes per glyph,
 *   height, width; the glyphs at the header size, rows of (width+7)/8
 *   bytes. The table is UTF-8, each glyph's entries ended by the byte FF,
 *   FE starting its sequences.
 */
#include "common/psf.h"

#include <errno.h>
#include <string.h>

#define PSF1_MAGIC0 0x36
#define PSF1_MAGIC1 0x04
#define PSF1_HEADER 4
#define PSF1_MODE512 0x01
#define PSF1_MODEHASTAB 0x02
#define PSF1_MODEHASSEQ 0x04
#define PSF1_SEPARATOR 0xFFFF
#define PSF1_STARTSEQ 0xFFFE

static const unsigned char psf2_magic[4] = { 0x72, 0xb5, 0x4a, 0x86 };
#define PSF2_HEADER 32
#define PSF2_HAS_UNICODE_TABLE 0x01
#define PSF2_SEPARATOR 0xFF
#define PSF2_STARTSEQ 0xFE

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned int row_bytes(unsigned int width)
{
	return (width + 7) / 8;
}

/* What both versions share once their header is read: the glyphs fit in
 * the file and the console can take them; the table is what follows. */
static int glyphs_check(const unsigned char *data, size_t len, size_t start, bool table,
			struct psf_font *f)
{
	size_t bytes;

	if (!f->count || !f->width || !f->height)
		return -EINVAL;
	if (f->count > PSF_GLYPHS_MAX || f->width > PSF_WIDTH_MAX || f->height > PSF_HEIGHT_MAX)
		return -E2BIG;
	if (f->glyph_size != (size_t)f->height * row_bytes(f->width))
		return -EINVAL;
	bytes = (size_t)f->count * f->glyph_size;
	if (start > len || len - start < bytes)
		return -EINVAL;
	f->glyphs = data + start;
	f->unicode = table ? data + start + bytes : NULL;
	f->unicode_len = table ? len - start - bytes : 0;
	return 0;
}

static int parse_psf1(const unsigned char *data, size_t len, struct psf_font *f)
{
	unsigned char mode = data[2];

	f->version = 1;
	f->width = 8;
	f->height = data[3];
	f->count = mode & PSF1_MODE512 ? 512 : 256;
	f->glyph_size = data[3];
	return glyphs_check(data, len, PSF1_HEADER, mode & (PSF1_MODEHASTAB | PSF1_MODEHASSEQ), f);
}

static int parse_psf2(const unsigned char *data, size_t len, struct psf_font *f)
{
	uint32_t header, count, size, height, width;

	if (len < PSF2_HEADER || le32(data + 4) != 0)
		return -EINVAL;
	header = le32(data + 8);
	count = le32(data + 16);
	size = le32(data + 20);
	height = le32(data + 24);
	width = le32(data + 28);
	if (header < PSF2_HEADER)
		return -EINVAL;
	/* Checked before they are narrowed: a huge value is not a small one. */
	if (count > PSF_GLYPHS_MAX || width > PSF_WIDTH_MAX || height > PSF_HEIGHT_MAX)
		return count && width && height ? -E2BIG : -EINVAL;
	f->version = 2;
	f->count = count;
	f->width = width;
	f->height = height;
	f->glyph_size = size;
	return glyphs_check(data, len, header, le32(data + 12) & PSF2_HAS_UNICODE_TABLE, f);
}

int psf_parse(const unsigned char *data, size_t len, struct psf_font *f)
{
	memset(f, 0, sizeof(*f));
	if (len >= PSF1_HEADER && data[0] == PSF1_MAGIC0 && data[1] == PSF1_MAGIC1)
		return parse_psf1(data, len, f);
	if (len >= sizeof(psf2_magic) && memcmp(data, psf2_magic, sizeof(psf2_magic)) == 0)
		return parse_psf2(data, len, f);
	return -EINVAL;
}

size_t psf_kernel_size(const struct psf_font *f)
{
	return (size_t)f->count * PSF_KERNEL_ROWS * row_bytes(f->width);
}

void psf_kernel_layout(const struct psf_font *f, unsigned char *out)
{
	size_t stride = (size_t)PSF_KERNEL_ROWS * row_bytes(f->width);

	memset(out, 0, psf_kernel_size(f));
	for (unsigned int i = 0; i < f->count; i++)
		memcpy(out + i * stride, f->glyphs + i * f->glyph_size, f->glyph_size);
}

/* A glyph's PSF1 entries from *pos: each code point before FFFE or FFFF. */
static int psf1_glyph(const struct psf_font *f, size_t *pos, unsigned int glyph,
		      int (*fn)(unsigned int, uint32_t, void *), void *ctx)
{
	bool seq = false;

	for (;;) {
		unsigned int v;
		int r;

		if (f->unicode_len - *pos < 2)
			return -EINVAL;
		v = f->unicode[*pos] | (unsigned int)f->unicode[*pos + 1] << 8;
		*pos += 2;
		if (v == PSF1_SEPARATOR)
			return 0;
		if (v == PSF1_STARTSEQ)
			seq = true;
		else if (!seq && (r = fn(glyph, v, ctx)) != 0)
			return r;
	}
}

/* One UTF-8 character at p (at most left bytes): its code point and length,
 * or -EINVAL. Overlong forms and surrogates are refused. */
static int utf8_next(const unsigned char *p, size_t left, uint32_t *cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned int n = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 :
			 (p[0] & 0xF8) == 0xF0 ? 4 : 0;
	uint32_t v;

	if (!n || n > left)
		return -EINVAL;
	v = n == 1 ? p[0] : p[0] & (0x7F >> n);
	for (unsigned int i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -EINVAL;
		v = v << 6 | (p[i] & 0x3F);
	}
	if (v < min[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return -EINVAL;
	*cp = v;
	return (int)n;
}

/* A glyph's PSF2 entries from *pos: each character before FE or FF. */
static int psf2_glyph(const struct psf_font *f, size_t *pos, unsigned int glyph,
		      int (*fn)(unsigned int, uint32_t, void *), void *ctx)
{
	bool seq = false;

	for (;;) {
		uint32_t cp;
		int n, r;

		if (*pos >= f->unicode_len)
			return -EINVAL;
		if (f->unicode[*pos] == PSF2_SEPARATOR) {
			(*pos)++;
			return 0;
		}
		if (f->unicode[*pos] == PSF2_STARTSEQ) {
			seq = true;
			(*pos)++;
			continue;
		}
		n = utf8_next(f->unicode + *pos, f->unicode_len - *pos, &cp);
		if (n < 0)
			return n;
		*pos += (size_t)n;
		if (!seq && (r = fn(glyph, cp, ctx)) != 0)
			return r;
	}
}

int psf_unicode_foreach(const struct psf_font *f,
			int (*fn)(unsigned int glyph, uint32_t cp, void *ctx), void *ctx)
{
	size_t pos = 0;

	if (!f->unicode)
		return 0;
	for (unsigned int i = 0; i < f->count; i++) {
		int r = f->version == 1 ? psf1_glyph(f, &pos, i, fn, ctx) :
					  psf2_glyph(f, &pos, i, fn, ctx);

		if (r != 0)
			return r;
	}
	return 0;
}
