/* vfont: loading the image's console font with KDFONTOP.
 *
 * The init does this itself instead of carrying setfont: the font was
 * checked (and uncompressed) on the build host, so what is left is laying
 * the glyphs out as the kernel reads them (common/psf.h) and two ioctls:
 * the glyphs, then the Unicode table that tells the console which glyph
 * draws which character (without it, characters past ASCII would be
 * drawn with the glyphs of the kernel's own table's positions). */
#include "bootlib/vfont.h"

#include <errno.h>
#include <linux/kd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bootlib/vconsole.h"
#include "common/layout.h"
#include "common/psf.h"

/* struct unimapdesc counts its entries in 16 bits. */
#define UNIMAP_MAX 65535

struct unimap {
	struct unipair *pairs;
	size_t n;
};

/* The console's table holds the Basic Multilingual Plane only. */
static int add_pair(unsigned int glyph, uint32_t cp, void *ctx)
{
	struct unimap *m = ctx;

	if (cp > 0xFFFF || m->n >= UNIMAP_MAX)
		return 0;
	m->pairs[m->n++] = (struct unipair){ .unicode = (unsigned short)cp,
					     .fontpos = (unsigned short)glyph };
	return 0;
}

/* The glyphs with KD_FONT_OP_SET on every console (the kernel applies it
 * to the VT given; tty0 is the one on screen, and the others take the
 * font of the console they start from). */
static int set_glyphs(int fd, const struct psf_font *f)
{
	size_t size = psf_kernel_size(f);
	unsigned char *data = malloc(size);
	struct console_font_op op = { .op = KD_FONT_OP_SET, .width = f->width,
				      .height = f->height, .charcount = f->count, .data = data };
	int r;

	if (!data)
		return -ENOMEM;
	psf_kernel_layout(f, data);
	r = ioctl(fd, KDFONTOP, &op) < 0 ? -errno : 0;
	free(data);
	return r;
}

/* The Unicode table, replacing the kernel's: cleared, then set. */
static int set_unimap(int fd, const struct psf_font *f)
{
	struct unimapinit init = { 0 };
	struct unimap m = { .pairs = calloc(UNIMAP_MAX, sizeof(struct unipair)) };
	struct unimapdesc desc;
	int r;

	if (!m.pairs)
		return -ENOMEM;
	r = psf_unicode_foreach(f, add_pair, &m);
	if (r == 0 && m.n) {
		desc = (struct unimapdesc){ .entry_ct = (unsigned short)m.n, .entries = m.pairs };
		if (ioctl(fd, PIO_UNIMAPCLR, &init) < 0 || ioctl(fd, PIO_UNIMAP, &desc) < 0)
			r = -errno;
	}
	free(m.pairs);
	return r;
}

static int font_apply(const char *path, const struct psf_font *f, char *why, size_t size)
{
	int fd = vconsole_vt_open();
	int r;

	if (fd < 0) {
		snprintf(why, size, "the console font %s: the kernel has no virtual terminal "
			 "(a serial console draws with the sending terminal's font)", path);
		return fd;
	}
	r = set_glyphs(fd, f);
	if (r < 0) {
		snprintf(why, size, "loading the console font %s into the kernel (KDFONTOP) "
			 "failed: %s; the console keeps the kernel's font", path, strerror(-r));
	} else {
		int u = set_unimap(fd, f);

		snprintf(why, size, "console font %s loaded (PSF%u, %ux%u, %u glyphs%s)", path,
			 f->version, f->width, f->height, f->count,
			 u < 0 ? "; its Unicode table was not: characters past ASCII may be "
				 "drawn wrong" : "");
	}
	close(fd);
	return r;
}

int vfont_load(const char *name, char *why, size_t size)
{
	static const struct vconsole_file font = {
		"rd.vconsole.font", "font", LAYOUT_FONT_DIR, LAYOUT_FONT_SUFFIX, PSF_FILE_MAX,
	};
	char path[VCONSOLE_PATH_MAX];
	struct psf_font f;
	char *data;
	size_t len;
	int r = vconsole_file_read(&font, name, path, sizeof(path), &data, &len, why, size);

	if (r < 0)
		return r;
	r = psf_parse((const unsigned char *)data, len, &f);
	if (r < 0)
		snprintf(why, size, "%s is not a console font the kernel takes (PSF1 or PSF2, at "
			 "most 512 glyphs of 32x32); rebuild the image", path);
	else
		r = font_apply(path, &f, why, size);
	free(data);
	return r;
}
