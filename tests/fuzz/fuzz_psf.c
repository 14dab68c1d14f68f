/* Fuzz target: console font files (common/psf.c), as the generator checks
 * --font's or the host's and the init loads the image's: the header, the
 * kernel's layout of the glyphs and the Unicode table. */
#include <stdint.h>
#include <stdlib.h>

#include "common/psf.h"

/* Every code point the table gives names a glyph of the font. */
static int check_pair(unsigned int glyph, uint32_t cp, void *ctx)
{
	const struct psf_font *f = ctx;

	if (glyph >= f->count || cp > 0x10FFFF)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct psf_font f;
	unsigned char *out;

	if (psf_parse(data, size, &f) != 0)
		return 0;
	if (f.count > PSF_GLYPHS_MAX || f.width > PSF_WIDTH_MAX || f.height > PSF_HEIGHT_MAX ||
	    f.glyphs + (size_t)f.count * f.glyph_size > data + size ||
	    (f.unicode && f.unicode + f.unicode_len != data + size))
		abort();
	out = malloc(psf_kernel_size(&f));
	if (!out)
		return 0;
	psf_kernel_layout(&f, out);
	free(out);
	psf_unicode_foreach(&f, check_pair, &f);
	return 0;
}
