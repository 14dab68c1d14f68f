/* kmods_emit: put the chosen modules, their firmware and the module table
 * (common/modtab.h) into the image. */
#include "common/modtab.h"
#include "gen/gen_report.h"
#include "gen/kmod/kmods.h"
#include "gen/kmod/kmods_int.h"
#include "gen/kmod/modfile.h"
#include "gen/kmod/modpack.h"
#include "gen/kmod/modtab_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names in list that are chosen and not omitted: what the table may name. */
static int names_kept(const struct kmods *k, const struct strv *list, struct strv *out)
{
	for (size_t i = 0; i < list->len; i++) {
		int r = 0;

		if (!kmods_omitted(k, list->items[i]) && kmods_find(k, list->items[i]))
			r = strv_push(out, list->items[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

#define FIRMWARE_DIRS_DEFAULT "/lib/firmware/updates:/lib/firmware"

/* A module's firmware that is not installed: a warning of its own when the
 * modules are this machine's (host-only), whose devices may need it; in a
 * generic image, whose set covers hardware no one machine has, only -v
 * names it and kmods_emit counts it in one line. */
static void firmware_missing(const struct kmods *k, const struct kmods_entry *e, size_t n,
			     const char *first, const char *fwdirs, size_t *modules_missing)
{
	const char *dirs = fwdirs ? fwdirs : FIRMWARE_DIRS_DEFAULT;

	if (!k->generic) {
		gen_warn("module %s: %zu firmware file(s) not found in %s (first: %s); devices "
			 "that need them may not work: install the firmware package", e->name, n,
			 dirs, first);
		return;
	}
	gen_info("module %s: %zu firmware file(s) not found in %s (first: %s)", e->name, n, dirs,
		 first);
	(*modules_missing)++;
}

/* Firmware is copied as found (compressed or not) under its own name: the
 * kernel's loader tries NAME, NAME.xz and NAME.zst. Missing firmware is no
 * error, as many modules declare firmware only some devices need. */
static int firmware_add(const struct kmods *k, struct image *img, const struct kmods_entry *e,
			const char *fwdirs, size_t *modules_missing)
{
	struct kmod_list *info = NULL, *l;
	const char *first_missing = NULL;
	char *missing = NULL;
	size_t n_missing = 0;
	int r = kmod_module_get_info(e->mod, &info);

	if (r < 0)
		return 0;   /* modinfo unreadable: the module itself was read, its firmware is optional */
	r = 0;      /* it returned the number of entries */
	kmod_list_foreach(l, info) {
		const char *name = kmod_module_info_get_value(l);
		const char *suffix;
		char *found, dst[4096];

		if (strcmp(kmod_module_info_get_key(l), "firmware") != 0 || !name)
			continue;
		r = modfile_firmware_find(fwdirs, k->kver, name, &found, &suffix);
		if (r == -ENOENT) {
			if (!first_missing)
				first_missing = name;
			n_missing++;
			r = 0;
			continue;
		}
		if (r < 0)
			break;
		snprintf(dst, sizeof(dst), "/lib/firmware/%s%s", name, suffix);
		if (!image_has(img, dst))
			gen_info("firmware %s: declared by module %s", found, e->name);
		image_set_kind(img, IMAGE_KIND_FIRMWARE);
		r = image_has(img, dst) ? 0 : image_add_file(img, found, dst, 0644);
		image_set_kind(img, IMAGE_KIND_MODULE);
		free(found);
		if (r < 0)
			break;
	}
	if (n_missing > 0 && (missing = strdup(first_missing)))
		firmware_missing(k, e, n_missing, missing, fwdirs, modules_missing);
	free(missing);
	kmod_module_info_free_list(info);
	return r;
}

/* The table records of one module: "m", "s" when it has softdeps, "b" when
 * blacklisted. */
static int entry_lines(const struct kmods *k, const struct kmods_entry *e, const char *dst,
		       struct strv *lines)
{
	struct strv deps = STRV_INIT, pre = STRV_INIT, post = STRV_INIT;
	int r = names_kept(k, &e->deps, &deps);

	if (r == 0)
		r = names_kept(k, &e->pre, &pre);
	if (r == 0)
		r = names_kept(k, &e->post, &post);
	if (r == 0)
		r = modtab_write_module(lines, e->name, dst, deps.items, e->options);
	if (r == 0 && (pre.len || post.len))
		r = modtab_write_softdep(lines, e->name, pre.items, post.items);
	if (r == 0 && e->blacklisted)
		r = modtab_write_blacklist(lines, e->name);
	if (r == -EINVAL)
		gen_error("module %s: its name, path or options (\"%s\") cannot be written to the "
			  "module table (tab or newline inside); fix modprobe.d", e->name, e->options);
	strv_free(&deps);
	strv_free(&pre);
	strv_free(&post);
	return r;
}

/* Whether the module named name is stored plain. A generic image's set
 * (hundreds of modules, most never loaded) is xz'd, but for the modules
 * most boots load (modpack_plain). A host-only image's few modules are
 * this machine's and all plain: its init needs no liblzma, 0.19 MB that
 * cost more than the archive's compression of them (docs/image-layout.md). */
static bool module_plain(const struct kmods *k, const char *name)
{
	return !k->generic || modpack_plain(name);
}

/* The module, packed by modpack_run, and its firmware. */
static int entry_emit(const struct kmods *k, struct image *img, const struct kmods_entry *e,
		      const struct modpack_job *packed, const char *fwdirs, size_t *fw_missing)
{
	char *dst = modfile_image_path(e->path, k->moddir, k->kver, packed->plain);
	int r;

	if (!dst)
		return -ENOMEM;
	r = packed->plain ? image_add_data(img, dst, packed->data, packed->len, 0644)
			  : image_add_xz(img, dst, packed->data, packed->len, 0644);
	if (r == 0)
		r = firmware_add(k, img, e, fwdirs, fw_missing);
	free(dst);
	return r;
}

/* Aliases of the chosen modules. Read from modules.alias directly rather
 * than each module's modinfo: one sequential read of the file depmod made,
 * exactly what modprobe matches against, instead of reopening (and
 * decompressing) every module. */
static int aliases_lines(const struct kmods *k, struct strv *lines)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = kmods_index_open(k, "modules.alias");
	int r = 0;

	if (!f)
		return -errno;
	while (r == 0 && getline(&line, &cap, f) > 0) {
		char pattern[1024], name[256];

		if (sscanf(line, "alias %1023s %255s", pattern, name) != 2)
			continue;
		if (kmods_find(k, name) && !kmods_omitted(k, name))
			r = modtab_write_alias(lines, pattern, name);
	}
	free(line);
	fclose(f);
	return r;
}

/* "alias" lines of modprobe.d, for the chosen modules. */
static int config_aliases_lines(const struct kmods *k, struct strv *lines)
{
	struct kmod_config_iter *it = kmod_config_get_aliases(k->ctx);
	int r = 0;

	while (r == 0 && it && kmod_config_iter_next(it)) {
		const char *name = kmod_config_iter_get_value(it);

		if (name && kmods_find(k, name) && !kmods_omitted(k, name))
			r = modtab_write_alias(lines, kmod_config_iter_get_key(it), name);
	}
	kmod_config_iter_free_iter(it);
	return r;
}

int kmods_table(struct kmods *k, char **text, size_t *len)
{
	struct strv lines = STRV_INIT;
	int r = 0;

	kmods_sort(k);
	for (size_t i = 0; r == 0 && i < k->n_mods; i++) {
		char *dst;

		if (kmods_omitted(k, k->mods[i].name))
			continue;
		dst = modfile_image_path(k->mods[i].path, k->moddir, k->kver,
					 module_plain(k, k->mods[i].name));
		r = dst ? entry_lines(k, &k->mods[i], dst, &lines) : -ENOMEM;
		free(dst);
	}
	if (r == 0)
		r = aliases_lines(k, &lines);
	if (r == 0)
		r = config_aliases_lines(k, &lines);
	if (r == 0)
		r = modtab_write_join(&lines, text, len);
	strv_free(&lines);
	return r;
}

/* The modules that are chosen and not omitted, compressed for the image. */
static int modules_pack(const struct kmods *k, struct modpack_job **out, size_t *n)
{
	struct modpack_job *jobs = calloc(k->n_mods ? k->n_mods : 1, sizeof(*jobs));
	size_t count = 0;
	int r;

	if (!jobs)
		return -ENOMEM;
	for (size_t i = 0; i < k->n_mods; i++)
		if (!kmods_omitted(k, k->mods[i].name)) {
			jobs[count].plain = module_plain(k, k->mods[i].name);
			jobs[count++].src = k->mods[i].path;
		}
	r = modpack_run(jobs, count);
	*out = jobs;
	*n = count;
	return r;
}

int kmods_emit(struct kmods *k, struct image *img, const char *fwdirs)
{
	struct modpack_job *packed = NULL;
	size_t n_packed = 0, j = 0, fw_missing = 0;
	char *text;
	size_t len;
	int r;

	kmods_sort(k);
	image_set_kind(img, IMAGE_KIND_MODULE);
	r = modules_pack(k, &packed, &n_packed);
	for (size_t i = 0; r == 0 && i < k->n_mods; i++)
		if (!kmods_omitted(k, k->mods[i].name))
			r = entry_emit(k, img, &k->mods[i], &packed[j++], fwdirs, &fw_missing);
	if (fw_missing > 0)
		gen_warn("%zu modules of the generic set declare firmware not found in %s, for "
			 "devices that may not be here; if one is, install its firmware package "
			 "(lifeboat build -v lists the modules)", fw_missing,
			 fwdirs ? fwdirs : FIRMWARE_DIRS_DEFAULT);
	for (size_t i = 0; i < n_packed; i++)
		free(packed[i].data);
	free(packed);
	image_set_kind(img, IMAGE_KIND_OTHER);
	if (r == 0)
		r = kmods_table(k, &text, &len);
	if (r == 0) {
		r = image_add_data(img, MODTAB_PATH, text, len, 0644);
		free(text);
	}
	return r;
}
