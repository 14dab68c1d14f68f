/* rescue_pack: the rescue shell in the image (--rescue, --rescue-auth). */
#include "gen/feature/rescue_pack.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/layout.h"
#include "gen/elf/applets.h"
#include "gen/elf/libdeps.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"
#include "gen/host/shadow.h"

#define SHADOW_DEFAULT "/etc/shadow"
#define SHADOW_MAX (1 << 20)

const char *rescue_pack_busybox(const struct build_opts *o)
{
	/* Generic images carry the shell by default; host-only images stay
	 * as small as this machine allows (docs/rescue.md). */
	if (!o->rescue)
		return o->mode == BUILD_GENERIC && access(RESCUE_BUSYBOX_HOST, R_OK) == 0 ?
		       RESCUE_BUSYBOX_HOST : NULL;
	if (strcmp(o->rescue, "none") == 0)
		return NULL;
	if (strcmp(o->rescue, "busybox") == 0)
		return RESCUE_BUSYBOX_HOST;
	return o->rescue;
}

/* The directories of the rescue shell's PATH. */
static const char *const path_dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

/* Whether the image has a program called name on the shell's PATH. */
static bool image_has_program(const struct image *img, const char *name)
{
	for (size_t i = 0; i < sizeof(path_dirs) / sizeof(path_dirs[0]); i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", path_dirs[i], name);
		if (image_has(img, path))
			return true;
	}
	return false;
}

/* Whether busybox's applet of that name is linked: not busybox itself,
 * not modprobe (which needs a modules.dep the image does not have: the
 * init is the image's modprobe, common/layout.h), and not a program of
 * that name already in the image (mke2fs from --add-binaries, say), which
 * is left to be found instead, in whichever PATH directory it is. */
static bool applet_wanted(const struct image *img, const char *name)
{
	return strcmp(name, "busybox") != 0 && strcmp(name, LAYOUT_MODPROBE_NAME) != 0 &&
	       !image_has_program(img, name);
}

/* The applet links for the init to make beside busybox. */
static int add_applet_list(struct image *img, const struct strv *applets)
{
	size_t cap = 1, len = 0;
	char *list;
	int r;

	for (size_t i = 0; i < applets->len; i++)
		cap += strlen(applets->items[i]) + 1;
	list = malloc(cap);
	if (!list)
		return -ENOMEM;
	for (size_t i = 0; i < applets->len; i++)
		if (applet_wanted(img, applets->items[i]))
			len += (size_t)snprintf(list + len, cap - len, "%s\n", applets->items[i]);
	r = image_add_data(img, LAYOUT_BUSYBOX_APPLETS, list, len, 0644);
	free(list);
	return r;
}

static int add_busybox(struct image *img, const char *busybox)
{
	struct strv applets = STRV_INIT;
	int r = applets_read_file(busybox, &applets);

	if (r == -ENOENT && access(busybox, R_OK) == 0)
		gen_error("--rescue %s: no busybox applet table found in it (looked for the "
			  "names '[' and '[['); give a busybox binary, or --rescue none", busybox);
	else if (r < 0)
		gen_error("--rescue %s: cannot read it: %s; install busybox-static or give "
			  "--rescue none", busybox, strerror(-r));
	if (r >= 0)
		r = program_add_packed(img, busybox, LAYOUT_BUSYBOX_XZ);
	/* Where the init unpacks it, which may hold nothing else. */
	if (r >= 0)
		r = image_add_dir(img, LAYOUT_BUSYBOX_DIR, 0755);
	if (r >= 0)
		r = add_applet_list(img, &applets);
	if (r >= 0)
		gen_info("rescue: %s with %zu applets in %s", busybox, applets.len, LAYOUT_BUSYBOX_DIR);
	strv_free(&applets);
	return r < 0 ? r : 0;
}

static int add_root_hash(struct image *img, const char *shadow)
{
	char *text = malloc(SHADOW_MAX);
	char hash[512];
	ssize_t len = text ? file_read_text(shadow, 0, text, SHADOW_MAX) : -ENOMEM;
	int r = len < 0 ? (int)len : 0;

	if (r < 0)
		gen_error("--rescue-auth: reading %s failed: %s; run as root or give "
			  "--rescue-shadow FILE", shadow, strerror(-r));
	else if ((r = shadow_root_hash(text, (size_t)len, hash, sizeof(hash) - 1)) == -EPERM)
		gen_error("--rescue-auth: root's password in %s is locked or empty, so no "
			  "password could open the shell; set one with passwd or drop --rescue-auth",
			  shadow);
	else if (r < 0)
		gen_error("--rescue-auth: %s has no usable root entry (%s)", shadow, strerror(-r));
	if (r == 0) {
		strcat(hash, "\n");
		r = image_add_data(img, LAYOUT_RESCUE_AUTH, hash, strlen(hash), 0600);
	}
	explicit_bzero(hash, sizeof(hash));
	if (text)
		explicit_bzero(text, SHADOW_MAX);
	free(text);
	return r;
}

/* libcrypt for the init's dlopen(), found as the init's loader would find
 * it, so it matches the init's machine. */
static int add_libcrypt(struct image *img, const char *init)
{
	return program_add_dlopen(img, init, LAYOUT_LIBCRYPT);
}

int rescue_pack(const struct build_opts *o, struct image *img, const char *init)
{
	const char *busybox = rescue_pack_busybox(o);
	int r = busybox ? add_busybox(img, busybox) : 0;

	if (!busybox)
		gen_info("rescue: no busybox; the init's built-in prompt is the rescue");
	if (r == 0 && o->rescue_auth)
		r = add_root_hash(img, o->rescue_shadow ? o->rescue_shadow : SHADOW_DEFAULT);
	if (r == 0 && o->rescue_auth)
		r = add_libcrypt(img, init);
	return r;
}

/* Always: without a busybox the choice is said (-v), the init's prompt is the rescue. */
static bool rescue_pack_wanted(const struct build_ctx *c)
{
	(void)c;
	return true;
}

static int rescue_pack_add_files(struct build_ctx *c)
{
	return rescue_pack(c->opts, c->img, c->init);
}

const struct feature rescue_pack_feature = {
	.name = "rescue",
	.wanted = rescue_pack_wanted,
	.add_files = rescue_pack_add_files,
};
