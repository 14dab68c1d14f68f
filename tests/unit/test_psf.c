/* Unit tests: console fonts (common/psf.c): PSF1 and PSF2 headers, the
 * kernel's 32-row layout, the Unicode tables with their sequences, what
 * the kernel cannot take and what is cut short; then every font
 * console-setup installs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/psf.h"

#define FONTS "/usr/share/consolefonts"

struct seen {
	unsigned int glyph[64];
	uint32_t cp[64];
	size_t n;
};

static int record(unsigned int glyph, uint32_t cp, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 64) {
		s->glyph[s->n] = glyph;
		s->cp[s->n] = cp;
	}
	s->n++;
	return 0;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A PSF2 header for count glyphs of width x height, table or not. */
static size_t psf2_header(unsigned char *buf, uint32_t count, uint32_t width, uint32_t height,
			  int table)
{
	static const unsigned char magic[4] = { 0x72, 0xb5, 0x4a, 0x86 };

	memcpy(buf, magic, 4);
	put_le32(buf + 4, 0);
	put_le32(buf + 8, 32);
	put_le32(buf + 12, table ? 1 : 0);
	put_le32(buf + 16, count);
	put_le32(buf + 20, height * ((width + 7) / 8));
	put_le32(buf + 24, height);
	put_le32(buf + 28, width);
	return 32;
}

/* PSF1: 256 glyphs 8x2, glyph i's rows i and 255-i; a table giving glyph
 * 0 U+0041 and a sequence, glyph 1 U+00E9 and U+0065, the rest none. */
static void psf1_font(void **state)
{
	unsigned char buf[4 + 256 * 2 + 2048];
	unsigned char out[256 * 32];
	size_t n = 4, t;
	struct psf_font f;
	struct seen s = { .n = 0 };
	static const uint16_t table[] = { 0x41, 0xFFFE, 0x45, 0x301, 0xFFFF, 0xE9, 0x65, 0xFFFF };

	(void)state;
	buf[0] = 0x36, buf[1] = 0x04, buf[2] = 0x02, buf[3] = 2;
	for (int i = 0; i < 256; i++) {
		buf[n++] = (unsigned char)i;
		buf[n++] = (unsigned char)(255 - i);
	}
	t = n;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++, n += 2)
		buf[n] = (unsigned char)table[i], buf[n + 1] = (unsigned char)(table[i] >> 8);
	for (int i = 2; i < 256; i++, n += 2)
		buf[n] = 0xFF, buf[n + 1] = 0xFF;
	assert_int_equal(psf_parse(buf, n, &f), 0);
	assert_int_equal(f.version, 1);
	assert_int_equal(f.width, 8);
	assert_int_equal(f.height, 2);
	assert_int_equal(f.count, 256);
	assert_int_equal(psf_kernel_size(&f), 256 * 32);
	psf_kernel_layout(&f, out);
	assert_int_equal(out[7 * 32], 7);
	assert_int_equal(out[7 * 32 + 1], 248);
	assert_int_equal(out[7 * 32 + 2], 0);
	assert_int_equal(out[7 * 32 + 31], 0);
	assert_int_equal(psf_unicode_foreach(&f, record, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.glyph[0], 0);
	assert_int_equal(s.cp[0], 0x41);
	assert_int_equal(s.glyph[1], 1);
	assert_int_equal(s.cp[1], 0xE9);
	assert_int_equal(s.cp[2], 0x65);
	/* The table cut short: malformed, not read past the end. */
	assert_int_equal(psf_parse(buf, n - 1, &f), 0);
	assert_int_equal(psf_unicode_foreach(&f, record, &s), -EINVAL);
	/* The glyphs cut short. */
	assert_int_equal(psf_parse(buf, t - 1, &f), -EINVAL);
	/* Without a table: no code points. */
	buf[2] = 0;
	s.n = 0;
	assert_int_equal(psf_parse(buf, t, &f), 0);
	assert_null(f.unicode);
	assert_int_equal(psf_unicode_foreach(&f, record, &s), 0);
	assert_int_equal(s.n, 0);
	/* 512 glyphs asked for, 256 there. */
	buf[2] = 0x01;
	assert_int_equal(psf_parse(buf, t, &f), -EINVAL);
}

/* PSF2: 2 glyphs 12x3 (two bytes a row), a UTF-8 table with a
 * three-byte character, a four-byte one and a sequence. */
static void psf2_font(void **state)
{
	unsigned char buf[256], out[2 * 32 * 2];
	static const unsigned char table[] = {
		'A', 0xE2, 0x82, 0xAC, 0xFE, 'e', 0xCC, 0x81, 0xFF,   /* A, U+20AC, a sequence */
		0xF0, 0x9F, 0x98, 0x80, 0xFF,                         /* U+1F600 */
	};
	size_t n = psf2_header(buf, 2, 12, 3, 1);
	struct psf_font f;
	struct seen s = { .n = 0 };

	(void)state;
	for (int i = 0; i < 12; i++)
		buf[n++] = (unsigned char)(0x10 + i);
	memcpy(buf + n, table, sizeof(table));
	n += sizeof(table);
	assert_int_equal(psf_parse(buf, n, &f), 0);
	assert_int_equal(f.version, 2);
	assert_int_equal(f.width, 12);
	assert_int_equal(f.height, 3);
	assert_int_equal(f.count, 2);
	assert_int_equal(psf_kernel_size(&f), 2 * 32 * 2);
	psf_kernel_layout(&f, out);
	assert_int_equal(out[0], 0x10);
	assert_int_equal(out[5], 0x15);
	assert_int_equal(out[6], 0);
	assert_int_equal(out[64], 0x16);
	assert_int_equal(out[69], 0x1b);
	assert_int_equal(psf_unicode_foreach(&f, record, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.cp[0], 'A');
	assert_int_equal(s.cp[1], 0x20AC);
	assert_int_equal(s.glyph[2], 1);
	assert_int_equal(s.cp[2], 0x1F600);
	/* An overlong form, a stray continuation byte, a surrogate. */
	buf[n - 5] = 0xC0, buf[n - 4] = 0x81;
	assert_int_equal(psf_parse(buf, n, &f), 0);
	assert_int_equal(psf_unicode_foreach(&f, record, &s), -EINVAL);
	buf[n - 5] = 0x81;
	assert_int_equal(psf_unicode_foreach(&f, record, &s), -EINVAL);
	buf[n - 5] = 0xED, buf[n - 4] = 0xA0, buf[n - 3] = 0x80;
	assert_int_equal(psf_unicode_foreach(&f, record, &s), -EINVAL);
}

/* What the console cannot take is -E2BIG; nonsense is -EINVAL. */
static void psf2_limits(void **state)
{
	unsigned char buf[64 + 4 * 33 * 513];
	struct psf_font f;

	(void)state;
	memset(buf, 0, sizeof(buf));
	psf2_header(buf, 513, 8, 16, 0);
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -E2BIG);
	psf2_header(buf, 16, 33, 16, 0);
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -E2BIG);
	psf2_header(buf, 16, 8, 33, 0);
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -E2BIG);
	psf2_header(buf, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0);
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -E2BIG);
	psf2_header(buf, 0, 8, 16, 0);
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -EINVAL);
	psf2_header(buf, 16, 8, 16, 0);
	put_le32(buf + 20, 17);   /* bytes per glyph that do not match the rows */
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -EINVAL);
	psf2_header(buf, 16, 8, 16, 0);
	put_le32(buf + 8, 0xFFFFFFF0);   /* the glyphs past the end */
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -EINVAL);
	psf2_header(buf, 16, 8, 16, 0);
	put_le32(buf + 8, 16);   /* a header shorter than the header */
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -EINVAL);
	psf2_header(buf, 16, 8, 16, 0);
	put_le32(buf + 4, 1);   /* an unknown version */
	assert_int_equal(psf_parse(buf, sizeof(buf), &f), -EINVAL);
	assert_int_equal(psf_parse(buf, 31, &f), -EINVAL);
	assert_int_equal(psf_parse((const unsigned char *)"\x36", 1, &f), -EINVAL);
	assert_int_equal(psf_parse((const unsigned char *)"plain text", 10, &f), -EINVAL);
}

/* Every font console-setup installs parses, its table walks, and each
 * code point names a glyph of the font. */
static void installed_fonts(void **state)
{
	DIR *dir = opendir(FONTS);
	struct dirent *de;
	size_t fonts = 0;
	static unsigned char data[PSF_FILE_MAX];

	(void)state;
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		char path[512];
		gzFile gz;
		int len, r;
		struct psf_font f;
		struct seen s = { .n = 0 };

		if (!strstr(de->d_name, ".psf"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", FONTS, de->d_name);
		gz = gzopen(path, "rb");
		assert_non_null(gz);
		len = gzread(gz, data, sizeof(data));
		gzclose(gz);
		assert_true(len > 0);
		r = psf_parse(data, (size_t)len, &f);
		if (r != 0)
			fprintf(stderr, "%s: %d\n", path, r);
		assert_int_equal(r, 0);
		assert_int_equal(psf_unicode_foreach(&f, record, &s), 0);
		assert_true(s.n == 0 || s.glyph[0] < f.count);
		fonts++;
	}
	closedir(dir);
	assert_true(fonts > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(psf1_font),
		cmocka_unit_test(psf2_font),
		cmocka_unit_test(psf2_limits),
		cmocka_unit_test(installed_fonts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
