/* live_pack: what a live root (root=live:URL, net/liveroot.c) needs in the
 * image (--live): libcurl and libcrypto for the init's dlopen(), the host's
 * CA bundle for https:// servers, and the loop, squashfs, erofs and overlay
 * modules.
 * The network's part is --net's (--live implies it). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"

/* Debian's and its derivatives' bundle, as kdump's https targets take it. */
#define LIVE_CA_BUNDLE "/etc/ssl/certs/ca-certificates.crt"

static bool live_pack_wanted(const struct build_ctx *c)
{
	return c->opts->live;
}

static int live_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	static const char *const mods[] = { FEATUREMODS_LIVE };
	int r = kmods_add_list(k, mods, sizeof(mods) / sizeof(mods[0]), false, "live root");

	(void)c;
	return r == 0 ? kmods_add_optional(k, FEATUREMODS_LIVE_OPTIONAL, "live root (erofs)") : r;
}

/* The CAs for https:// servers: --live-ca's, else the host's bundle. */
static int live_pack_ca(struct build_ctx *c)
{
	const char *ca = c->opts->live_ca ? c->opts->live_ca : LIVE_CA_BUNDLE;

	if (access(ca, R_OK) < 0 && c->opts->live_ca) {
		gen_error("--live-ca %s: %s", ca, strerror(errno));
		return -ENOENT;
	}
	if (access(ca, R_OK) < 0) {
		gen_warn("--live: this host has no %s: the image can fetch a live root over "
			 "http:// only (install ca-certificates, or give --live-ca FILE)", ca);
		return 0;
	}
	return image_add_file(c->img, ca, LAYOUT_LIVE_CA, 0644);
}

/* What the init dlopen()s for a live root, and the package that has it.
 * libcurl fetches (net/live/live_fetch.c); libcrypto hashes the image
 * (net/live/live_hash.c). Debian's libcurl links libcrypto for https, so
 * libcurl's ELF dependencies bring it already; it is added by its own
 * name all the same, as the init opens it by that name whatever TLS
 * library the host's libcurl was built with. */
static const struct {
	const char *soname, *package;
} live_libs[] = {
	{ LAYOUT_LIBCURL, "libcurl4" },
	{ LAYOUT_LIBCRYPTO, "libssl3" },
};

static int live_pack_add_files(struct build_ctx *c)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(live_libs) / sizeof(live_libs[0]); i++) {
		r = program_add_dlopen(c->img, c->init, live_libs[i].soname);
		if (r == -ENOENT)
			gen_error("--live needs %s, which this host lacks: install %s", live_libs[i].soname,
				  live_libs[i].package);
	}
	return r < 0 ? r : live_pack_ca(c);
}

const struct feature live_pack_feature = {
	.name = "live",
	.wanted = live_pack_wanted,
	.add_modules = live_pack_modules,
	.add_files = live_pack_add_files,
};
