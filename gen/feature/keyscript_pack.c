/* keyscript_pack: read the image's crypttab for keyscript=, pack each with its needs. */
#include "gen/feature/keyscript_pack.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/crypttab.h"
#include "common/fileread.h"
#include "common/keyscripts.h"
#include "common/layout.h"
#include "common/luksopts.h"
#include "gen/addfile.h"
#include "gen/elf/program.h"
#include "gen/feature/rescue_pack.h"
#include "gen/gen_report.h"
#include "gen/host/stackconf.h"
#include "gen/host/stackhost.h"

#define CRYPTTAB_TEXT_MAX (1024 * 1024)

/* Where a named helper is on the host, searched as the keyscript's PATH. */
static bool host_program(const char *name, char *out, size_t size)
{
	static const char *const dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(out, size, "%s/%s", dirs[i], name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

bool keyscript_pack_crypttab_src(const char *item, char *src, size_t size)
{
	return strcmp(addfile_dst(item), LAYOUT_CRYPTTAB) == 0 && addfile_src(item, src, size) == 0;
}

/* The crypttab text the image carries (NULL: none): a host-only image's
 * lines for its stack, else the file --add-files puts at /etc/crypttab. */
static char *image_crypttab(const struct build_ctx *c)
{
	const struct strv *add = &c->opts->add_files;
	char *text = NULL, *left = NULL, src[PATH_MAX];
	size_t len;

	if (c->host) {
		if (stackhost_crypttab_text(add, &c->host->stack, &text, &left) < 0)
			text = NULL;
		free(left);
		return text;
	}
	for (size_t i = 0; i < add->len; i++)
		if (keyscript_pack_crypttab_src(add->items[i], src, sizeof(src)))
			return file_read_all(src, CRYPTTAB_TEXT_MAX, &text, &len) == 0 ? text : NULL;
	return NULL;
}

struct walk {
	const struct build_ctx *c;
	int (*fn)(const struct build_ctx *c, const struct crypttab_entry *e,
		  const struct luks_opts *o, void *ctx);
	void *ctx;
};

static int keyscript_line(void *ctx, const struct crypttab_entry *e, const struct luks_opts *o)
{
	const struct walk *w = ctx;

	return o->keyscript[0] ? w->fn(w->c, e, o, w->ctx) : 0;
}

/* Call fn for each line of the image's crypttab that names a keyscript. */
static int each_keyscript(const struct build_ctx *c,
			  int (*fn)(const struct build_ctx *c, const struct crypttab_entry *e,
				    const struct luks_opts *o, void *ctx), void *ctx)
{
	struct walk w = { c, fn, ctx };
	char *text = image_crypttab(c);
	int r = stackconf_crypttab_each(text, keyscript_line, &w);

	free(text);
	return r;
}

static int add_modules(const struct build_ctx *c, const struct crypttab_entry *e,
		       const struct luks_opts *o, void *ctx)
{
	const struct keyscript_needs *needs = keyscripts_find(o->keyscript);
	struct kmods *k = ctx;
	int r = 0;

	(void)c;
	(void)e;
	for (size_t i = 0; needs && r == 0 && i < sizeof(needs->modules) / sizeof(needs->modules[0]) &&
	     needs->modules[i]; i++)
		r = kmods_add_optional(k, needs->modules[i], "a crypttab keyscript");
	return r;
}

int keyscript_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	return each_keyscript(c, add_modules, k);
}

/* Say that the keyscript of e cannot be packed, and why; -ENOENT. */
static int refuse(const struct crypttab_entry *e, const char *script, const char *why)
{
	gen_error("crypttab: keyscript=%s of the line '%s %s %s %s' %s; no image is written",
		  script, e->name, e->source, e->keyfile, e->options, why);
	return -ENOENT;
}

/* A script's interpreter: /bin/sh is the rescue's busybox (the init makes
 * /bin/sh of it before the keyscript runs) or, in an image without it (a
 * host-only image's default), the host's /bin/sh; another is packed. */
static int pack_interpreter(const struct build_ctx *c, const struct crypttab_entry *e,
			    const char *script, const char *interp)
{
	bool sh = strcmp(interp, "/bin/sh") == 0 || strcmp(interp, "/usr/bin/sh") == 0;
	char why[PATH_MAX + 64];

	if (image_has(c->img, interp) || (sh && rescue_pack_busybox(c->opts)))
		return 0;
	if (access(interp, X_OK) == 0)
		return program_add(c->img, interp, NULL);
	snprintf(why, sizeof(why), "runs with %s, which this host does not have", interp);
	return refuse(e, script, why);
}

/* The host's program name, packed where it is; refused when it is missing. */
static int pack_program(const struct build_ctx *c, const struct crypttab_entry *e,
			const char *script, const char *name, const char *package)
{
	char path[PATH_MAX];

	if (!host_program(name, path, sizeof(path))) {
		char why[256];

		snprintf(why, sizeof(why), "calls %s, which this host does not have "
			 "(apt-get install %s)", name, package);
		return refuse(e, script, why);
	}
	return image_has(c->img, path) ? 0 : program_add(c->img, path, NULL);
}

/* What Debian's known keyscripts call: programs, and the tools busybox
 * has (the host's when the image has no busybox). */
static int pack_needs(const struct build_ctx *c, const struct crypttab_entry *e,
		      const char *script, const struct keyscript_needs *needs)
{
	bool busybox = rescue_pack_busybox(c->opts) != NULL;
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(needs->programs) / sizeof(needs->programs[0]) &&
	     needs->programs[i]; i++)
		r = pack_program(c, e, script, needs->programs[i], needs->package);
	for (size_t i = 0; r == 0 && !busybox &&
	     i < sizeof(needs->applets) / sizeof(needs->applets[0]) && needs->applets[i]; i++)
		r = pack_program(c, e, script, needs->applets[i], "busybox-static, or build with "
				 "--rescue busybox");
	return r;
}

static int pack_one(const struct build_ctx *c, const struct crypttab_entry *e,
		    const struct luks_opts *o, void *ctx)
{
	const struct keyscript_needs *needs = keyscripts_find(o->keyscript);
	char interp[PATH_MAX];
	int r = 0, kind;

	(void)ctx;
	if (image_has(c->img, o->keyscript))
		return 0;
	kind = program_kind(o->keyscript, interp, sizeof(interp));
	if (kind == -ENOEXEC)
		return refuse(e, o->keyscript, "is neither an ELF program nor a #! script");
	if (kind < 0)
		return refuse(e, o->keyscript, kind == -ENOENT ? "is not on this host" :
			      "cannot be read");
	if (kind == 1)
		r = pack_interpreter(c, e, o->keyscript, interp);
	if (r == 0)
		r = kind == 0 ? program_add(c->img, o->keyscript, NULL) :
				image_add_host_path(c->img, o->keyscript);
	/* Keyscripts ask for passphrases with it (decrypt_keyctl, decrypt_gnupg). */
	if (r == 0 && access(KEYSCRIPT_ASKPASS, X_OK) == 0 && !image_has(c->img, KEYSCRIPT_ASKPASS))
		r = program_add(c->img, KEYSCRIPT_ASKPASS, NULL);
	if (r == 0 && needs)
		r = pack_needs(c, e, o->keyscript, needs);
	if (r == 0)
		gen_info("crypttab: %s opens with keyscript=%s, packed%s", e->name, o->keyscript,
			 needs ? " with what it needs" : " (not one of Debian's: its own programs "
			 "are added with --add-binaries)");
	return r;
}

int keyscript_pack_files(const struct build_ctx *c)
{
	return each_keyscript(c, pack_one, NULL);
}
