/* mpath_pack: put multipath, kpartx, their plugins, the dm-multipath
 * modules and (host-only) the host's multipath configuration into the image. */
#include "gen/feature/mpath_pack.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"

/* libmultipath dlopen()s its checkers, prioritizers and foreign libraries
 * from this compiled-in directory (multipath_dir is ignored since 0.9);
 * the ELF reader cannot see them: every one goes in. */
static const char *const plugin_dirs[] = { "/lib/multipath", "/usr/lib/multipath" };

struct mpath_tool {
	const char *dst;
	const char *const srcs[2];   /* merged /usr or not */
};

static const struct mpath_tool tools[] = {
	{ LAYOUT_MULTIPATH, { "/usr/sbin/multipath", "/sbin/multipath" } },
	{ LAYOUT_KPARTX, { "/usr/sbin/kpartx", "/sbin/kpartx" } },
};

static const char *const modules[] = { FEATUREMODS_MPATH };

static bool host_root_on_map(const struct build_ctx *c)
{
	const struct strv *m = c->host ? &c->host->stack.root_modules : NULL;

	for (size_t i = 0; m && i < m->len; i++)
		if (strcmp(m->items[i], "dm_multipath") == 0)
			return true;
	return false;
}

bool mpath_pack_wanted(const struct build_ctx *c)
{
	return c->opts->multipath || host_root_on_map(c);
}

static int mpath_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	(void)c;
	return kmods_add_list(k, modules, sizeof(modules) / sizeof(modules[0]), true, "multipath");
}

static int add_tool(struct image *img, const struct mpath_tool *t)
{
	for (size_t i = 0; i < sizeof(t->srcs) / sizeof(t->srcs[0]); i++)
		if (access(t->srcs[i], X_OK) == 0)
			return program_add(img, t->srcs[i], t->dst);
	gen_error("--multipath: %s is not installed; install multipath-tools and kpartx "
		  "(apt-get install multipath-tools kpartx)", t->srcs[0]);
	return -ENOENT;
}

/* Every *.so of the first plugin directory that exists, at its host path. */
static int add_plugins(struct image *img)
{
	for (size_t i = 0; i < sizeof(plugin_dirs) / sizeof(plugin_dirs[0]); i++) {
		DIR *d = opendir(plugin_dirs[i]);
		struct dirent *e;
		int r = 0;

		if (!d)
			continue;
		while (r == 0 && (e = readdir(d))) {
			char path[PATH_MAX];
			size_t n = strlen(e->d_name);

			if (n < 4 || strcmp(e->d_name + n - 3, ".so") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", plugin_dirs[i], e->d_name);
			r = program_add(img, path, NULL);
		}
		closedir(d);
		return r;
	}
	gen_error("--multipath: no %s (multipath's checkers); install multipath-tools",
		  plugin_dirs[0]);
	return -ENOENT;
}

static int add_if_there(struct image *img, const char *path)
{
	if (access(path, R_OK) < 0)
		return 0;
	if (gen_verbose)
		gen_info("multipath: added the host's %s", path);
	return image_add_file(img, path, path, 0644);
}

/* The host's multipath.conf, wwids (the strict claim reads it: only those
 * LUNs are grouped), bindings (the mpathN names) and conf.d. A generic
 * image takes none: it boots other machines (rd.multipath=default). */
static int add_host_config(struct image *img)
{
	static const char *const files[] = {
		LAYOUT_MULTIPATH_CONF, LAYOUT_MULTIPATH_DIR "/wwids", LAYOUT_MULTIPATH_DIR "/bindings",
	};
	DIR *d;
	struct dirent *e;
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]); i++)
		r = add_if_there(img, files[i]);
	d = opendir(LAYOUT_MULTIPATH_DIR "/conf.d");
	while (r == 0 && d && (e = readdir(d))) {
		char path[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/conf.d/%s", LAYOUT_MULTIPATH_DIR, e->d_name);
		r = add_if_there(img, path);
	}
	if (d)
		closedir(d);
	return r;
}

static int mpath_pack_add_files(struct build_ctx *c)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(tools) / sizeof(tools[0]); i++)
		r = add_tool(c->img, &tools[i]);
	if (r == 0)
		r = add_plugins(c->img);
	if (r == 0 && c->opts->mode == BUILD_HOST_ONLY)
		r = add_host_config(c->img);
	if (r == 0 && gen_verbose)
		gen_info("multipath: added %s, %s and the checkers", LAYOUT_MULTIPATH, LAYOUT_KPARTX);
	return r;
}

const struct feature mpath_pack_feature = {
	.name = "multipath",
	.wanted = mpath_pack_wanted,
	.add_modules = mpath_pack_modules,
	.add_files = mpath_pack_add_files,
};
