/* keymap_pack: the keyboard layout at the prompts (docs/input.md).
 *
 * The layout is compiled here, on the build host, into the kernel's own
 * table form (`loadkeys -b`, common/bkeymap.h); the init hands each entry
 * to the kernel with KDSKBENT itself. The image then needs neither
 * loadkeys nor the keymap sources and their include files, and a layout
 * that does not compile fails the build, not the boot at a prompt.
 *
 * Which layout: --keymap NAME, else (host-only) the host's: vconsole.conf
 * KEYMAP=, or Debian's /etc/default/keyboard XKB settings, converted with
 * ckbcomp (console-setup). The image's 20-vconsole.conf names it with
 * rd.vconsole.keymap=, which the user's and the kernel's words override.
 */
#include "gen/feature/feature.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bkeymap.h"
#include "common/layout.h"
#include "gen/gen_report.h"
#include "gen/host/hostrun.h"

/* A binary keymap is 263 bytes and 256 bytes per table present. */
#define KEYMAP_MAX (BKEYMAP_MAGIC_LEN + BKEYMAP_TABLES * (1 + BKEYMAP_KEYS * 2))
/* ckbcomp's text for one layout with every modifier combination. */
#define XKB_TEXT_MAX (4 * 1024 * 1024)

/* What to compile: a console keymap name (loadkeys finds it), or an XKB
 * layout that ckbcomp turns into one. */
struct keymap_source {
	char name[KBDHOST_VALUE_MAX * 2];   /* its name in the image */
	const char *console;                /* a console keymap name, or NULL */
	const struct kbd_host *xkb;         /* XKB settings, or NULL */
	const char *from;                   /* "--keymap", or the host's file */
};

/* The kernel's own layout is US: a host with it needs nothing added. */
static bool host_layout_is_kernels(const struct kbd_host *k)
{
	if (k->keymap[0])
		return strcmp(k->keymap, "us") == 0;
	return strcmp(k->xkb_layout, "us") == 0 && !k->xkb_variant[0] && !k->xkb_options[0];
}

static bool keymap_pack_wanted(const struct build_ctx *c)
{
	const struct host_facts *h = c->host;

	return c->opts->keymap ||
	       (h && h->keyboard_status == 0 && (h->keyboard.keymap[0] || h->keyboard.xkb_layout[0]) &&
		!host_layout_is_kernels(&h->keyboard));
}

/* The console's terminals run in UTF-8 (the kernel's default), so the
 * keymap's characters are stored as Unicode (-u). */
static int compile_text(const char *text, size_t len, char **out, size_t *out_len)
{
	const char *const argv[] = { "loadkeys", "-q", "-u", "-b", NULL };

	return hostrun_capture(argv, text, len, out, out_len, KEYMAP_MAX);
}

static int compile_console(const char *name, char **out, size_t *out_len)
{
	const char *const argv[] = { "loadkeys", "-q", "-u", "-b", name, NULL };

	return hostrun_capture(argv, NULL, 0, out, out_len, KEYMAP_MAX);
}

/* ckbcomp's arguments for the fields that are set; -compact keeps only the
 * modifier tables the layout uses. */
static int compile_xkb(const struct kbd_host *k, char **out, size_t *out_len)
{
	const char *argv[12] = { "ckbcomp", "-compact", "-layout", k->xkb_layout };
	size_t n = 4;
	char *text;
	size_t len;
	int r;

	if (k->xkb_variant[0]) {
		argv[n++] = "-variant";
		argv[n++] = k->xkb_variant;
	}
	if (k->xkb_model[0]) {
		argv[n++] = "-model";
		argv[n++] = k->xkb_model;
	}
	if (k->xkb_options[0]) {
		argv[n++] = "-option";
		argv[n++] = k->xkb_options;
	}
	argv[n] = NULL;
	r = hostrun_capture(argv, NULL, 0, &text, &len, XKB_TEXT_MAX);
	if (r < 0)
		return r;
	r = compile_text(text, len, out, out_len);
	free(text);
	return r;
}

static int source_compile(const struct keymap_source *s, char **out, size_t *out_len)
{
	int r = s->console ? compile_console(s->console, out, out_len)
			   : compile_xkb(s->xkb, out, out_len);

	if (r == 0 && bkeymap_check((const unsigned char *)*out, *out_len) < 0) {
		free(*out);
		r = -EINVAL;
	}
	return r;
}

/* --keymap's layout must compile; the host's, when it does not, leaves
 * the image with the kernel's layout and a warning (a host-only build
 * must not fail for want of ckbcomp). */
static void report_failure(const struct keymap_source *s, int r, bool fatal)
{
	void (*report)(const char *, ...) = fatal ? gen_error : gen_warn;

	if (s->console)
		report("%s: compiling the console keymap %s with `loadkeys -u -b %s` failed "
			  "(%s); check the name (kbd's or console-data's keymaps must be "
			  "installed) or give --keymap another layout",
			  s->from, s->console, s->console,
			  r == -ENOENT ? "loadkeys is missing: install kbd" : strerror(-r));
	else
		report("%s: converting the XKB layout %s%s%s with ckbcomp and `loadkeys -u -b` "
			  "failed (%s); install console-setup (ckbcomp) and kbd (loadkeys), "
			  "or give --keymap a console keymap name",
			  s->from, s->xkb->xkb_layout, s->xkb->xkb_variant[0] ? " variant " : "",
			  s->xkb->xkb_variant,
			  r == -ENOENT ? "ckbcomp or loadkeys is missing" : strerror(-r));
}

/* --keymap NAME: a console keymap, or else an XKB layout of that name
 * (Debian ships XKB layouts with keyboard-configuration, the console
 * keymaps only with console-data). */
static int compile_option(const char *name, struct kbd_host *xkb, struct keymap_source *s,
			  char **out, size_t *out_len)
{
	int r;

	*s = (struct keymap_source){ .console = name, .from = "--keymap" };
	snprintf(s->name, sizeof(s->name), "%s", name);
	if (source_compile(s, out, out_len) == 0)
		return 0;
	memset(xkb, 0, sizeof(*xkb));
	snprintf(xkb->xkb_layout, sizeof(xkb->xkb_layout), "%s", name);
	*s = (struct keymap_source){ .xkb = xkb, .from = "--keymap" };
	snprintf(s->name, sizeof(s->name), "%s", name);
	r = source_compile(s, out, out_len);
	if (r < 0) {
		s->console = name;   /* report the name as given */
		s->xkb = NULL;
	}
	return r;
}

static void host_source(const struct kbd_host *k, struct keymap_source *s)
{
	*s = (struct keymap_source){ .from = k->from };
	if (k->keymap[0]) {
		s->console = k->keymap;
		snprintf(s->name, sizeof(s->name), "%s", k->keymap);
		return;
	}
	s->xkb = k;
	snprintf(s->name, sizeof(s->name), "%s%s%s", k->xkb_layout, k->xkb_variant[0] ? "-" : "",
		 k->xkb_variant);
}

static int keymap_pack_add_files(struct build_ctx *c)
{
	struct keymap_source s;
	struct kbd_host xkb;
	char path[sizeof(LAYOUT_KEYMAP_DIR) + sizeof(s.name) + 8], line[sizeof(s.name) + 32];
	char *map = NULL;
	size_t len = 0;
	int r;

	if (c->opts->keymap) {
		if (!bkeymap_name_ok(c->opts->keymap)) {
			gen_error("--keymap %s: not a keymap name (letters, digits, _ . , + - :)",
				  c->opts->keymap);
			return -EINVAL;
		}
		r = compile_option(c->opts->keymap, &xkb, &s, &map, &len);
	} else {
		host_source(&c->host->keyboard, &s);
		r = source_compile(&s, &map, &len);
	}
	if (r < 0) {
		report_failure(&s, r, c->opts->keymap != NULL);
		return c->opts->keymap ? r : 0;
	}
	snprintf(path, sizeof(path), "%s/%s%s", LAYOUT_KEYMAP_DIR, s.name, LAYOUT_KEYMAP_SUFFIX);
	snprintf(line, sizeof(line), "rd.vconsole.keymap=%s\n", s.name);
	gen_info("keyboard layout at the prompts: %s (from %s); rd.vconsole.keymap= on the "
		 "command line names another one the image has", s.name, s.from);
	r = image_add_data(c->img, path, map, len, 0644);
	free(map);
	return r < 0 ? r : image_add_data(c->img, LAYOUT_CMDLINE_VCONSOLE, line, strlen(line), 0644);
}

const struct feature keymap_pack_feature = {
	.name = "keymap",
	.wanted = keymap_pack_wanted,
	.add_files = keymap_pack_add_files,
};
