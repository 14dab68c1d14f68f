/* font_pack: the console font at the prompts (docs/input.md).
 *
 * The font is found and checked here, on the build host: kbd's and
 * console-setup's font directories hold PSF files, mostly gzip'd; the
 * image gets the file uncompressed (the image is compressed as a whole),
 * checked by the same parser the init uses (common/psf.h), so a font the
 * kernel cannot take fails the build, not the boot. The init loads it
 * with KDFONTOP itself (bootlib/vfont.c): no setfont in the image.
 *
 * Which font: --font NAME (or a file's path), else (host-only) the
 * host's: vconsole.conf FONT=, or Debian's /etc/default/console-setup
 * (gen/host/kbdhost.h). The image's 21-vconsole-font.conf names it with
 * rd.vconsole.font=, which the user's and the kernel's words override.
 */
#include "gen/feature/feature.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bkeymap.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "common/psf.h"
#include "gen/archive/decompress.h"
#include "gen/gen_report.h"

#define FONT_PATH_MAX 512

/* Where kbd (Fedora, Arch: /usr/lib/kbd, /usr/share/kbd) and
 * console-setup and kbd on Debian keep their fonts, and the endings a
 * font's file name has there. */
static const char *const font_dirs[] = {
	"/usr/share/consolefonts", "/usr/lib/kbd/consolefonts", "/usr/share/kbd/consolefonts",
};
static const char *const font_suffixes[] = {
	".psfu.gz", ".psf.gz", ".psfu", ".psf", ".gz", "",
};

static const char *host_font(const struct build_ctx *c)
{
	const struct host_facts *h = c->host;

	return h && h->keyboard_status == 0 && h->keyboard.font[0] ? h->keyboard.font : NULL;
}

static bool font_pack_wanted(const struct build_ctx *c)
{
	return c->opts->font || host_font(c);
}

/* The name in the image: the file's base name without its endings. */
static void image_name(const char *given, char *out, size_t size)
{
	const char *base = strrchr(given, '/');

	snprintf(out, size, "%s", base ? base + 1 : given);
	for (size_t i = 0; i + 1 < sizeof(font_suffixes) / sizeof(font_suffixes[0]); i++) {
		size_t n = strlen(out), s = strlen(font_suffixes[i]);

		if (n > s && strcmp(out + n - s, font_suffixes[i]) == 0) {
			out[n - s] = '\0';
			break;
		}
	}
}

/* The font's file: a path as given, else NAME with each ending in each
 * directory. Returns 0 or -ENOENT. */
static int font_find(const char *given, char *path, size_t size)
{
	if (strchr(given, '/')) {
		snprintf(path, size, "%s", given);
		return access(path, R_OK) == 0 ? 0 : -ENOENT;
	}
	for (size_t d = 0; d < sizeof(font_dirs) / sizeof(font_dirs[0]); d++)
		for (size_t s = 0; s < sizeof(font_suffixes) / sizeof(font_suffixes[0]); s++) {
			snprintf(path, size, "%s/%s%s", font_dirs[d], given, font_suffixes[s]);
			if (access(path, R_OK) == 0)
				return 0;
		}
	return -ENOENT;
}

/* The file's bytes, uncompressed when it is gzip'd (or xz, zstd). */
static int font_read(const char *path, unsigned char **out, size_t *len)
{
	char *raw;
	size_t raw_len, used;
	const struct decompressor *d;
	int r = file_read_all(path, PSF_FILE_MAX, &raw, &raw_len);

	if (r < 0)
		return r;
	d = decompress_find((const unsigned char *)raw, raw_len);
	if (!d) {
		*out = (unsigned char *)raw;
		*len = raw_len;
		return 0;
	}
	r = d->unpack((const unsigned char *)raw, raw_len, PSF_FILE_MAX, out, len, &used);
	free(raw);
	return r;
}

/* Find, read and check the font given as NAME or path; its bytes in *data
 * (malloc'd), its name in the image in name. Returns 0 or -errno after
 * reporting (an error when fatal, else a warning). */
static int font_load(const char *given, const char *from, bool fatal, char *name, size_t size,
		     unsigned char **data, size_t *len)
{
	void (*report)(const char *, ...) = fatal ? gen_error : gen_warn;
	char path[FONT_PATH_MAX];
	struct psf_font f;
	int r;

	image_name(given, name, size);
	if (!bkeymap_name_ok(name)) {
		report("%s: the font %s: not a font name (letters, digits, _ . , + - :)", from, given);
		return -EINVAL;
	}
	r = font_find(given, path, sizeof(path));
	if (r == 0)
		r = font_read(path, data, len);
	if (r < 0) {
		report("%s: the console font %s: %s; install it (console-setup or kbd has most) "
		       "or give its file's path", from, given,
		       r == -ENOENT ? "no such file in /usr/share/consolefonts or kbd's "
				      "consolefonts" : strerror(-r));
		return r;
	}
	r = psf_parse(*data, *len, &f);
	if (r < 0) {
		report("%s: the font %s (%s) is not a console font the kernel takes: PSF1 or PSF2, "
		       "at most 512 glyphs of 32x32; give another", from, given, path);
		free(*data);
		*data = NULL;
		return r;
	}
	gen_info("console font at the prompts: %s (from %s: %s, PSF%u %ux%u, %u glyphs, %zu bytes)",
		 name, from, path, f.version, f.width, f.height, f.count, *len);
	return 0;
}

/* --font must be found and fit; the host's, when not, leaves the image
 * with the kernel's font and a warning. */
static int font_pack_add_files(struct build_ctx *c)
{
	bool fatal = c->opts->font != NULL;
	const char *given = fatal ? c->opts->font : host_font(c);
	char name[128], dst[sizeof(LAYOUT_FONT_DIR) + sizeof(name) + 8], line[sizeof(name) + 32];
	unsigned char *data = NULL;
	size_t len = 0;
	int r = font_load(given, fatal ? "--font" : c->host->keyboard.font_from, fatal, name,
			  sizeof(name), &data, &len);

	if (r < 0)
		return fatal ? r : 0;
	snprintf(dst, sizeof(dst), "%s/%s%s", LAYOUT_FONT_DIR, name, LAYOUT_FONT_SUFFIX);
	snprintf(line, sizeof(line), "rd.vconsole.font=%s\n", name);
	r = image_add_data(c->img, dst, data, len, 0644);
	free(data);
	return r < 0 ? r : image_add_data(c->img, LAYOUT_CMDLINE_VFONT, line, strlen(line), 0644);
}

const struct feature font_pack_feature = {
	.name = "font",
	.wanted = font_pack_wanted,
	.add_files = font_pack_add_files,
};
