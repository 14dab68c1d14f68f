/* psf: PC Screen Font files (PSF1 and PSF2, the format of the console
 * fonts kbd and console-setup ship), checked and laid out the way the
 * kernel's KDFONTOP takes a font, with their Unicode tables. The file may
 * come from anywhere (--font, the host's /etc/vconsole.conf): every size
 * is checked against the bytes there. */
#ifndef LIFEBOAT_COMMON_PSF_H
#define LIFEBOAT_COMMON_PSF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the kernel's console takes (drivers/tty/vt/vt.c, con_font_set):
 * at most 512 glyphs, 32 pixels wide and 32 high; KD_FONT_OP_SET reads
 * 32 rows per glyph whatever the height. */
#define PSF_GLYPHS_MAX 512
#define PSF_WIDTH_MAX 32
#define PSF_HEIGHT_MAX 32
#define PSF_KERNEL_ROWS 32
/* The largest font file: 512 glyphs of 32 rows of 4 bytes and a Unicode
 * table of a few code points per glyph. */
#define PSF_FILE_MAX (256 * 1024)

struct psf_font {
	unsigned int version;            /* 1 or 2 */
	unsigned int width, height;      /* pixels */
	unsigned int count;              /* glyphs */
	size_t glyph_size;               /* bytes per glyph in the file: height rows */
	const unsigned char *glyphs;     /* into the file's bytes */
	const unsigned char *unicode;    /* the Unicode table, or NULL */
	size_t unicode_len;
};

/* Check data (len bytes, a whole file) and describe it in f, which points
 * into data. Returns 0, -EINVAL when it is no PSF font or is cut short,
 * -E2BIG when the kernel's console cannot take it (too many glyphs, too
 * wide or high). */
int psf_parse(const unsigned char *data, size_t len, struct psf_font *f);
/* The bytes KD_FONT_OP_SET reads for f: count * 32 rows of (width+7)/8. */
size_t psf_kernel_size(const struct psf_font *f);
/* Write f's glyphs into out (psf_kernel_size bytes), each padded to 32
 * rows with zeros. */
void psf_kernel_layout(const struct psf_font *f, unsigned char *out);
/* Call fn(glyph, code point, ctx) for each single code point the Unicode
 * table maps to a glyph (sequences, which the console cannot use, are
 * skipped). Stops at fn's first non-zero return, which it returns.
 * Returns 0, or -EINVAL when the table is malformed (an entry past the
 * end, a bad UTF-8 byte in PSF2); nothing is called for a font without
 * one. */
int psf_unicode_foreach(const struct psf_font *f,
			int (*fn)(unsigned int glyph, uint32_t cp, void *ctx), void *ctx);

#endif
