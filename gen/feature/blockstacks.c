/* blockstacks: choose and add the block-stack tools and their configuration. */
#include "gen/feature/blockstacks.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "gen/elf/libdeps.h"
#include "gen/feature/feature.h"
#include "gen/feature/keyscript_pack.h"
#include "gen/gen_report.h"
#include "gen/host/hostonly.h"
#include "gen/host/stackhost.h"

struct stack_tool {
	const char *path;       /* the same path in the image (blockstack/ calls it) */
	const char *package;    /* Debian's, for the message when it is missing */
	const char *const markers[5]; /* host-only: root modules that mean this stack */
};

static const struct stack_tool tools[] = {
	{ LAYOUT_CRYPTSETUP, "cryptsetup-bin", { "dm_crypt", NULL } },
	{ LAYOUT_LVM,        "lvm2",           { "dm_snapshot", NULL } },
	{ LAYOUT_MDADM,      "mdadm",          { FEATUREMODS_MD_PERSONALITIES } },
};

static int add_tool(struct image *img, const struct stack_tool *t)
{
	struct strv libs = STRV_INIT;
	int r;

	if (access(t->path, X_OK) < 0) {
		gen_error("block stacks: %s is missing; install %s (apt-get install %s)",
			  t->path, t->package, t->package);
		return -ENOENT;
	}
	r = libdeps_resolve("", t->path, &libs);
	image_set_kind(img, IMAGE_KIND_LIBRARY);
	for (size_t i = 0; r == 0 && i < libs.len; i++)
		r = image_add_host_path(img, libs.items[i]);
	image_set_kind(img, IMAGE_KIND_BINARY);
	if (r == 0)
		r = image_add_host_path(img, t->path);
	image_set_kind(img, IMAGE_KIND_OTHER);
	strv_free(&libs);
	if (r == 0 && gen_verbose)
		gen_info("block stacks: added %s", t->path);
	return r;
}

static bool host_uses(const struct host_scan *h, const struct stack_tool *t)
{
	if (!h)
		return false;
	for (size_t m = 0; m < sizeof(t->markers) / sizeof(t->markers[0]) && t->markers[m]; m++)
		for (size_t i = 0; i < h->root_modules.len; i++)
			if (strcmp(h->root_modules.items[i], t->markers[m]) == 0)
				return true;
	return false;
}

bool blockstacks_host_uses(const struct host_scan *h, const char *path)
{
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (strcmp(tools[i].path, path) == 0)
			return host_uses(h, &tools[i]);
	return false;
}

int blockstacks_pack(const struct build_ctx *c)
{
	const struct build_opts *o = c->opts;
	const struct host_scan *h = c->host ? &c->host->stack : NULL;
	bool wanted[sizeof(tools) / sizeof(tools[0])] = { false };
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(tools) / sizeof(tools[0]); i++) {
		wanted[i] = o->block_stacks || host_uses(h, &tools[i]);
		if (wanted[i])
			r = add_tool(c->img, &tools[i]);
	}
	if (r == 0 && (wanted[1] || o->block_stacks))
		r = stackhost_add_lvm_conf(c->img, h != NULL);
	if (r == 0 && h)
		r = stackhost_add_config(&o->add_files, h, c->img);
	if (r == 0)
		r = keyscript_pack_files(c);
	return r;
}

/* --block-stacks, or a host-only image: the host's root stack decides. */
static bool blockstacks_wanted(const struct build_ctx *c)
{
	return c->opts->block_stacks || c->host;
}

/* --block-stacks: the device-mapper, dm-crypt with its ciphers and md
 * with its personalities, which the init loads by name before a tool
 * runs. A generic image has them among its storage modules; a host-only
 * one has only its root's stack's, and --block-stacks asks for more (a
 * kdump capture image whose dump disk is in LUKS, docs/kdump.md).
 * Optional: a kernel may build them in. */
static int blockstacks_add_modules(const struct build_ctx *c, struct kmods *k)
{
	static const char *const modules[] = {
		"dm_mod", "dm_crypt", FEATUREMODS_LUKS_CRYPTO, "md_mod", FEATUREMODS_MD_PERSONALITIES,
	};
	int r = keyscript_pack_modules(c, k);

	if (!c->opts->block_stacks || r < 0)
		return r;
	return kmods_add_list(k, modules, sizeof(modules) / sizeof(modules[0]), true, "block stacks");
}

static int blockstacks_add_files(struct build_ctx *c)
{
	return blockstacks_pack(c);
}

const struct feature blockstacks_feature = {
	.name = "block stacks",
	.wanted = blockstacks_wanted,
	.add_modules = blockstacks_add_modules,
	.add_files = blockstacks_add_files,
};
