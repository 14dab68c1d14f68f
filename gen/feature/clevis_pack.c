/* clevis_pack: the clevis unlock (--clevis, or a host whose root's or
 * resume device's containers have clevis bindings): lifeboat-clevis,
 * which the init runs on each LUKS container before asking for its
 * passphrase (blockstack/lukstang.c, docs/blockstacks.md). Its libraries
 * libcrypto and json-c are cryptsetup's too; libtss2 (the tpm2 pin,
 * dlopen()ed) is added when a binding may use the TPM (tpm2, sss) or with
 * --clevis. When a binding may name a Tang server, libcurl (dlopen()ed by
 * the HTTP client, bootlib/curlfn.c) comes along, and the marker
 * LAYOUT_CLEVIS_NET tells the init to bring the network up before the
 * root's device wait (init/boot_plan.c). --clevis implies --block-stacks and
 * --net (gen/opts/build_opts.c). */
#include "gen/feature/feature.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/gen_report.h"
#include "gen/image/image.h"

static bool clevis_pack_wanted(const struct build_ctx *c)
{
	return c->opts->clevis || (c->host && (c->host->root_tang || c->host->root_clevis));
}

static bool may_use_tpm(const struct build_ctx *c)
{
	return c->opts->clevis || (c->host && c->host->root_clevis_tpm);
}

/* The TPM's drivers, when the kernel has them as modules. */
static int clevis_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	static const char *const modules[] = { FEATUREMODS_TPM2 };

	if (!may_use_tpm(c))
		return 0;
	return kmods_add_list(k, modules, sizeof(modules) / sizeof(modules[0]), true, "clevis tpm2 pin");
}

/* libcurl for a Tang server, with what it links, found as lifeboat-clevis's
 * loader would find it. */
static int clevis_pack_curl(struct image *img, const char *clevis)
{
	int r = program_add_dlopen(img, clevis, LAYOUT_LIBCURL);

	if (r == -ENOENT)
		gen_error("clevis tang pin: %s is missing; lifeboat-clevis reaches Tang servers "
			  "with it: install libcurl4 (apt-get install libcurl4)", LAYOUT_LIBCURL);
	return r;
}

/* lifeboat-clevis is built and installed beside lifeboat-init. */
static int clevis_pack_add_files(struct build_ctx *c)
{
	char path[PATH_MAX];
	const char *slash = strrchr(c->init, '/');
	int dir_len = slash ? (int)(slash - c->init) : 1;

	bool net = c->opts->clevis || (c->host && c->host->root_tang);
	bool tpm = may_use_tpm(c);
	static const char *const tss2_libs[] = { LAYOUT_TSS2_LIBS };
	int r;

	snprintf(path, sizeof(path), "%.*s/lifeboat-clevis", dir_len, slash ? c->init : ".");
	gen_info("clevis unlock: %s as %s%s%s", path, LAYOUT_CLEVIS,
		 net ? "; libcurl for Tang, the network up before the root's wait" : "",
		 tpm ? "; libtss2 for the tpm2 pin" : "");
	r = program_add(c->img, path, LAYOUT_CLEVIS);
	if (r == 0 && net)
		r = image_add_data(c->img, LAYOUT_CLEVIS_NET, "", 0, 0644);
	if (r == 0 && net)
		r = clevis_pack_curl(c->img, path);
	/* lifeboat-clevis dlopen()s them (clevis/tss2fn.c). */
	for (size_t i = 0; r == 0 && tpm && i < sizeof(tss2_libs) / sizeof(tss2_libs[0]); i++) {
		r = program_add_dlopen(c->img, path, tss2_libs[i]);
		if (r == -ENOENT)
			gen_error("clevis tpm2 pin: %s is missing; install tpm2-tss's libraries "
				  "(apt-get install libtss2-esys-3.0.2-0 libtss2-mu0 "
				  "libtss2-tcti-device0)", tss2_libs[i]);
	}
	return r;
}

const struct feature clevis_pack_feature = {
	.name = "clevis",
	.wanted = clevis_pack_wanted,
	.add_modules = clevis_pack_modules,
	.add_files = clevis_pack_add_files,
};
