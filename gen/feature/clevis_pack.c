/* clevis_pack: the Tang unlock (--clevis): lifeboat-clevis, which the
 * init runs on each LUKS container before asking for its passphrase
 * (blockstack/lukstang.c, docs/blockstacks.md). Its libraries (libcrypto,
 * json-c) are cryptsetup's too, so the image grows by the program only.
 * Its presence also tells the init to bring the network up before the
 * root's device wait (init/plan.c). --clevis implies --block-stacks and
 * --net (gen/build_opts.c). */
#include "gen/feature/feature.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/gen_report.h"

static bool clevis_pack_wanted(const struct build_ctx *c)
{
	return c->opts->clevis || (c->host && c->host->root_tang);
}

/* lifeboat-clevis is built and installed beside lifeboat-init. */
static int clevis_pack_add_files(struct build_ctx *c)
{
	char path[PATH_MAX];
	const char *slash = strrchr(c->init, '/');
	int dir_len = slash ? (int)(slash - c->init) : 1;

	snprintf(path, sizeof(path), "%.*s/lifeboat-clevis", dir_len, slash ? c->init : ".");
	gen_info("Tang unlock: %s as %s; the network comes up before the root's wait",
		 path, LAYOUT_CLEVIS);
	return program_add(c->img, path, LAYOUT_CLEVIS);
}

const struct feature clevis_pack_feature = {
	.name = "clevis",
	.wanted = clevis_pack_wanted,
	.add_files = clevis_pack_add_files,
};
