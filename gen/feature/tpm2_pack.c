/* tpm2_pack: what unlocking LUKS2 with a systemd-tpm2 token needs: the TPM
 * drivers, and cryptsetup's token plugin from systemd with the TPM2
 * libraries it dlopen()s.
 *
 * The plugin is the well-kept path: systemd-cryptenroll writes the token,
 * the same project's plugin reads it, and cryptsetup loads the plugin by
 * itself for `cryptsetup open --token-only` (docs/blockstacks.md has the
 * size measured against calling libtss2 directly). Host-only images carry
 * it only when a container under the root or the resume device has such
 * a token; generic ones with --tpm2.
 */
#include "gen/feature/feature.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "common/luks2token.h"
#include "gen/elf/libdeps.h"
#include "gen/elf/program.h"
#include "gen/feature/blockstacks.h"
#include "gen/gen_report.h"

#define TPM2_TOKEN_TYPE "systemd-tpm2"
#define LIBCRYPTSETUP "/libcryptsetup.so.12"
/* In libcryptsetup's token directory, beside the library. */
#define PLUGIN_DIR "/cryptsetup/"
#define PLUGIN "libcryptsetup-token-systemd-tpm2.so"

static const char *const modules[] = { FEATUREMODS_TPM2 };
/* What systemd's TPM2 code dlopen()s (systemd 252, src/shared/tpm2-util.c
 * loads these by name; the TCTI for /dev/tpmrm0 is "device"). */
static const char *const tss2_libs[] = {
	"libtss2-esys.so.0", "libtss2-rc.so.0", "libtss2-mu.so.0", "libtss2-tcti-device.so.0",
};

/* A container of the host's root or resume stack has a systemd-tpm2 token. */
static bool host_has_token(const struct host_scan *h)
{
	for (size_t i = 0; i < h->n_luks; i++) {
		struct luks2_tokens t;
		char dev[300];

		snprintf(dev, sizeof(dev), "/dev/%s", h->luks[i].dev);
		if (luks2token_read(dev, &t, NULL) >= 0 && luks2token_find(&t, TPM2_TOKEN_TYPE))
			return true;
	}
	return false;
}

static bool tpm2_pack_wanted(const struct build_ctx *c)
{
	return c->opts->tpm2 || (c->host && host_has_token(&c->host->stack));
}

/* Optional: a kernel may build them in. */
static int tpm2_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	(void)c;
	return kmods_add_list(k, modules, sizeof(modules) / sizeof(modules[0]), true, "TPM2 unlock");
}

/* The plugin sits in libcryptsetup's own directory's cryptsetup/, found
 * from the library cryptsetup loads (so for its machine, not a fixed path). */
static int plugin_path(char *buf, size_t size)
{
	struct strv libs = STRV_INIT;
	int r = libdeps_resolve("", LAYOUT_CRYPTSETUP, &libs);

	if (r == 0)
		r = -ENOENT;
	for (size_t i = 0; r == -ENOENT && i < libs.len; i++) {
		const char *hit = strstr(libs.items[i], LIBCRYPTSETUP);

		if (hit && hit[strlen(LIBCRYPTSETUP)] == '\0') {
			snprintf(buf, size, "%.*s" PLUGIN_DIR PLUGIN, (int)(hit - libs.items[i]),
				 libs.items[i]);
			r = access(buf, R_OK) == 0 ? 0 : -ENOENT;
		}
	}
	strv_free(&libs);
	return r;
}

static int tpm2_pack_add_files(struct build_ctx *c)
{
	const struct host_scan *h = c->host ? &c->host->stack : NULL;
	char plugin[512];
	int r;

	if (!c->opts->block_stacks && !blockstacks_host_uses(h, LAYOUT_CRYPTSETUP)) {
		gen_error("--tpm2 unlocks LUKS containers with cryptsetup: add --block-stacks");
		return -EINVAL;
	}
	if (plugin_path(plugin, sizeof(plugin)) < 0) {
		gen_error("TPM2: cryptsetup's %s plugin was not found beside libcryptsetup; "
			  "install systemd (Debian 12) or libcryptsetup-token-systemd-tpm2", PLUGIN);
		return -ENOENT;
	}
	r = program_add_libraries(c->img, plugin);
	image_set_kind(c->img, IMAGE_KIND_LIBRARY);
	if (r == 0)
		r = image_add_host_path(c->img, plugin);
	image_set_kind(c->img, IMAGE_KIND_OTHER);
	for (size_t i = 0; r == 0 && i < sizeof(tss2_libs) / sizeof(tss2_libs[0]); i++) {
		r = program_add_dlopen(c->img, plugin, tss2_libs[i]);
		if (r == -ENOENT)
			gen_error("TPM2: %s is missing; install tpm2-tss's libraries "
				  "(apt-get install libtss2-esys-3.0.2-0 libtss2-rc0 libtss2-mu0 "
				  "libtss2-tcti-device0)", tss2_libs[i]);
	}
	if (r == 0)
		r = image_add_data(c->img, LAYOUT_TPM2_MARK, TPM2_TOKEN_TYPE "\n",
				   strlen(TPM2_TOKEN_TYPE "\n"), 0644);
	if (r == 0 && gen_verbose)
		gen_info("TPM2: added %s with libtss2 (%s)", plugin, c->opts->tpm2 ? "--tpm2" :
			 "a LUKS container under the root or resume device has a "
			 TPM2_TOKEN_TYPE " token");
	return r;
}

const struct feature tpm2_pack_feature = {
	.name = "TPM2",
	.wanted = tpm2_pack_wanted,
	.add_modules = tpm2_pack_modules,
	.add_files = tpm2_pack_add_files,
};
