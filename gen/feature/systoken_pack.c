/* systoken_pack: what unlocking LUKS2 with a token of systemd-cryptenroll's
 * needs, one table row per kind: cryptsetup's token plugin from systemd
 * with the libraries it dlopen()s, the kernel drivers of the device, and
 * the mark the init reads (common/layout.h).
 *
 * The plugin is the well-kept path: systemd-cryptenroll writes the token,
 * the same project's plugin reads it, and cryptsetup loads the plugin by
 * itself for `cryptsetup open --token-only` (docs/blockstacks.md has the
 * size measured against calling libtss2 directly). Host-only images carry
 * a kind only when a container under the root or the resume device has
 * such a token; generic ones with --tpm2 / --fido2 / --pkcs11.
 *
 * PKCS#11 has no kernel driver: the plugin finds its token through
 * p11-kit, which loads the modules its configuration lists. Both a
 * host-only image and --pkcs11 take the build host's configuration as it
 * is (the modules a card or token needs are the host's choice: opensc's
 * for most smart cards, a vendor's, softhsm2's), less the trust-anchor
 * module, which holds no keys; nothing else a module may need (pcscd for
 * a card reader) is carried.
 */
#include "gen/feature/feature.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "common/luks2token.h"
#include "gen/elf/libdeps.h"
#include "gen/elf/program.h"
#include "gen/feature/blockstacks.h"
#include "gen/feature/p11kit_conf.h"
#include "gen/gen_report.h"

#define LIBCRYPTSETUP "/libcryptsetup.so.12"
/* In libcryptsetup's token directory, beside the library. */
#define PLUGIN_DIR "/cryptsetup/"
#define LIBS_MAX 4

struct systoken {
	const char *name;          /* "TPM2", in messages */
	const char *option;        /* "--tpm2" */
	const char *type;          /* the token's type */
	const char *plugin;        /* its plugin's file name */
	const char *mark;          /* LAYOUT_*_MARK */
	const char *const *modules;
	size_t n_modules;
	const char *libs[LIBS_MAX];  /* what the plugin's systemd code dlopen()s */
	const char *install;       /* what to install when one is missing */
	/* More files (plugin: the plugin's host path); NULL: none. */
	int (*more)(struct build_ctx *c, const char *plugin);
};

static const char *const tpm2_modules[] = { FEATUREMODS_TPM2 };
static const char *const fido2_modules[] = { FEATUREMODS_FIDO2 };

/* systemd 252: src/shared/tpm2-util.c loads libtss2 by name (the TCTI for
 * /dev/tpmrm0 is "device"); src/shared/libfido2-util.c loads libfido2,
 * which needs libcbor, libudev and libcrypto itself (its NEEDED, followed). */
static const struct systoken tpm2 = {
	"TPM2", "--tpm2", "systemd-tpm2", "libcryptsetup-token-systemd-tpm2.so", LAYOUT_TPM2_MARK,
	tpm2_modules, sizeof(tpm2_modules) / sizeof(tpm2_modules[0]),
	{ "libtss2-esys.so.0", "libtss2-rc.so.0", "libtss2-mu.so.0", "libtss2-tcti-device.so.0" },
	"apt-get install libtss2-esys-3.0.2-0 libtss2-rc0 libtss2-mu0 libtss2-tcti-device0", NULL,
};
static const struct systoken fido2 = {
	"FIDO2", "--fido2", "systemd-fido2", "libcryptsetup-token-systemd-fido2.so", LAYOUT_FIDO2_MARK,
	fido2_modules, sizeof(fido2_modules) / sizeof(fido2_modules[0]),
	{ "libfido2.so.1" },
	"apt-get install libfido2-1", NULL,
};

static int pkcs11_more(struct build_ctx *c, const char *plugin);

/* systemd 252's plugin links libp11-kit (later systemd dlopen()s it:
 * named here either way). */
static const struct systoken pkcs11 = {
	"PKCS#11", "--pkcs11", "systemd-pkcs11", "libcryptsetup-token-systemd-pkcs11.so",
	LAYOUT_PKCS11_MARK, NULL, 0, { "libp11-kit.so.0" },
	"apt-get install libp11-kit0", pkcs11_more,
};

/* p11-kit's module files: the package's, then the administrator's. */
static const char *const p11kit_module_dirs[] = {
	"/usr/share/p11-kit/modules", "/etc/pkcs11/modules",
};
#define P11KIT_CONF "/etc/pkcs11/pkcs11.conf"
#define P11KIT_FILE_MAX (64 * 1024)

/* A module named without a path is in p11-kit's module directory, LIBDIR/pkcs11
 * (LIBDIR: the plugin's, less its cryptsetup/), or /usr/lib/pkcs11. */
static int module_path(const char *plugin, const char *module, char *buf, size_t size)
{
	const char *cut = strstr(plugin, PLUGIN_DIR);

	if (module[0] == '/') {
		snprintf(buf, size, "%s", module);
		return access(buf, R_OK) == 0 ? 0 : -ENOENT;
	}
	if (cut) {
		snprintf(buf, size, "%.*s/pkcs11/%s", (int)(cut - plugin), plugin, module);
		if (access(buf, R_OK) == 0)
			return 0;
	}
	snprintf(buf, size, "/usr/lib/pkcs11/%s", module);
	return access(buf, R_OK) == 0 ? 0 : -ENOENT;
}

/* One module file: it and its module (with the libraries it needs), when
 * cryptsetup would load it. Returns 1 when taken, 0 when not, or -errno. */
static int add_module_file(struct build_ctx *c, const char *plugin, const char *file)
{
	struct p11kit_module m;
	char *text = NULL, so[PATH_MAX];
	size_t len = 0;
	int r = file_read_all(file, P11KIT_FILE_MAX, &text, &len);

	if (r < 0)
		return 0;
	r = p11kit_conf_parse(text, len, &m);
	free(text);
	if (r < 0 || !p11kit_conf_wanted(&m))
		return 0;
	if (module_path(plugin, m.module, so, sizeof(so)) < 0) {
		gen_warn("PKCS#11: %s names %s, which is not installed; skipped", file, m.module);
		return 0;
	}
	r = program_add(c->img, so, NULL);
	if (r == 0)
		r = image_add_file(c->img, file, file, 0644);
	if (r == 0 && gen_verbose)
		gen_info("PKCS#11: added the module %s (%s)", so, file);
	return r < 0 ? r : 1;
}

static int add_module_dir(struct build_ctx *c, const char *plugin, const char *dir, int *n)
{
	DIR *d = opendir(dir);
	const struct dirent *e;
	int r = 0;

	while (r >= 0 && d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[PATH_MAX];

		if (len < 8 || strcmp(e->d_name + len - 7, ".module") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		r = add_module_file(c, plugin, path);
		if (r > 0)
			(*n)++;
	}
	if (d)
		closedir(d);
	return r < 0 ? r : 0;
}

/* The host's p11-kit configuration and the modules it lists. */
static int pkcs11_more(struct build_ctx *c, const char *plugin)
{
	int r = 0, n = 0;

	for (size_t i = 0; r == 0 && i < sizeof(p11kit_module_dirs) / sizeof(p11kit_module_dirs[0]);
	     i++)
		r = add_module_dir(c, plugin, p11kit_module_dirs[i], &n);
	if (r == 0 && access(P11KIT_CONF, R_OK) == 0)
		r = image_add_file(c->img, P11KIT_CONF, P11KIT_CONF, 0644);
	if (r == 0 && n == 0)
		gen_warn("PKCS#11: p11-kit lists no module that can hold a key (%s, %s): the "
			 "image finds no token; install the card's module (opensc-pkcs11 for most "
			 "smart cards)", p11kit_module_dirs[0], p11kit_module_dirs[1]);
	return r;
}

/* A container of the host's root or resume stack has a token of that type. */
static bool host_has_token(const struct host_scan *h, const char *type)
{
	for (size_t i = 0; i < h->n_luks; i++) {
		struct luks2_tokens t;
		char dev[300];

		snprintf(dev, sizeof(dev), "/dev/%s", h->luks[i].dev);
		if (luks2token_read(dev, &t, NULL) >= 0 && luks2token_find(&t, type))
			return true;
	}
	return false;
}

static bool wanted(const struct build_ctx *c, const struct systoken *k, bool flag)
{
	return flag || (c->host && host_has_token(&c->host->stack, k->type));
}

/* The plugin sits in libcryptsetup's own directory's cryptsetup/, found
 * from the library cryptsetup loads (so for its machine, not a fixed path). */
static int plugin_path(const struct systoken *k, char *buf, size_t size)
{
	struct strv libs = STRV_INIT;
	int r = libdeps_resolve("", LAYOUT_CRYPTSETUP, &libs);

	if (r == 0)
		r = -ENOENT;
	for (size_t i = 0; r == -ENOENT && i < libs.len; i++) {
		const char *hit = strstr(libs.items[i], LIBCRYPTSETUP);

		if (hit && hit[strlen(LIBCRYPTSETUP)] == '\0') {
			snprintf(buf, size, "%.*s" PLUGIN_DIR "%s", (int)(hit - libs.items[i]),
				 libs.items[i], k->plugin);
			r = access(buf, R_OK) == 0 ? 0 : -ENOENT;
		}
	}
	strv_free(&libs);
	return r;
}

static int add_files(struct build_ctx *c, const struct systoken *k, bool flag)
{
	const struct host_scan *h = c->host ? &c->host->stack : NULL;
	char plugin[512], mark[32];
	int r;

	if (!c->opts->block_stacks && !blockstacks_host_uses(h, LAYOUT_CRYPTSETUP)) {
		gen_error("%s unlocks LUKS containers with cryptsetup: add --block-stacks", k->option);
		return -EINVAL;
	}
	if (plugin_path(k, plugin, sizeof(plugin)) < 0) {
		gen_error("%s: cryptsetup's %s plugin was not found beside libcryptsetup; "
			  "install systemd (Debian 12) or libcryptsetup-token-%s", k->name, k->plugin,
			  k->type);
		return -ENOENT;
	}
	r = program_add_libraries(c->img, plugin);
	image_set_kind(c->img, IMAGE_KIND_LIBRARY);
	if (r == 0)
		r = image_add_host_path(c->img, plugin);
	image_set_kind(c->img, IMAGE_KIND_OTHER);
	for (size_t i = 0; r == 0 && i < LIBS_MAX && k->libs[i]; i++) {
		r = program_add_dlopen(c->img, plugin, k->libs[i]);
		if (r == -ENOENT)
			gen_error("%s: %s is missing; %s", k->name, k->libs[i], k->install);
	}
	if (r == 0 && k->more)
		r = k->more(c, plugin);
	snprintf(mark, sizeof(mark), "%s\n", k->type);
	if (r == 0)
		r = image_add_data(c->img, k->mark, mark, strlen(mark), 0644);
	if (r == 0 && gen_verbose)
		gen_info("%s: added %s with %s (%s)", k->name, plugin, k->libs[0],
			 flag ? k->option : "a LUKS container under the root or resume device has "
			 "such a token");
	return r;
}

/* Optional: a kernel may build them in. */
static int add_modules(struct kmods *km, const struct systoken *k)
{
	char why[32];

	snprintf(why, sizeof(why), "%s unlock", k->name);
	return kmods_add_list(km, k->modules, k->n_modules, true, why);
}

static bool tpm2_wanted(const struct build_ctx *c)
{
	return wanted(c, &tpm2, c->opts->tpm2);
}

static int tpm2_modules_add(const struct build_ctx *c, struct kmods *k)
{
	(void)c;
	return add_modules(k, &tpm2);
}

static int tpm2_files(struct build_ctx *c)
{
	return add_files(c, &tpm2, c->opts->tpm2);
}

static bool fido2_wanted(const struct build_ctx *c)
{
	return wanted(c, &fido2, c->opts->fido2);
}

static int fido2_modules_add(const struct build_ctx *c, struct kmods *k)
{
	(void)c;
	return add_modules(k, &fido2);
}

static int fido2_files(struct build_ctx *c)
{
	return add_files(c, &fido2, c->opts->fido2);
}

const struct feature systoken_tpm2_feature = {
	.name = "TPM2",
	.wanted = tpm2_wanted,
	.add_modules = tpm2_modules_add,
	.add_files = tpm2_files,
};

const struct feature systoken_fido2_feature = {
	.name = "FIDO2",
	.wanted = fido2_wanted,
	.add_modules = fido2_modules_add,
	.add_files = fido2_files,
};

static bool pkcs11_wanted(const struct build_ctx *c)
{
	return wanted(c, &pkcs11, c->opts->pkcs11);
}

static int pkcs11_files(struct build_ctx *c)
{
	return add_files(c, &pkcs11, c->opts->pkcs11);
}

/* No kernel driver: a PKCS#11 token is reached through its module. */
const struct feature systoken_pkcs11_feature = {
	.name = "PKCS#11",
	.wanted = pkcs11_wanted,
	.add_modules = NULL,
	.add_files = pkcs11_files,
};
