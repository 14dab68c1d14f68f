/* kmods: choose kernel modules with libkmod: names, aliases, modaliases, the
 * generic set and the host's needs, with dependencies and softdeps. */
#include "gen/kmod/kmods.h"

#include "common/array.h"
#include "gen/gen_report.h"
#include "gen/host/hostonly.h"
#include "gen/kmod/kmods_int.h"
#include "gen/kmod/modsets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How a lookup that finds nothing is treated. */
enum {
	RESOLVE_MISSING_OK = 1,   /* generic lists cover many kernels */
	RESOLVE_NO_BLACKLISTED = 2, /* alias loads skip blacklisted modules, as modprobe -b */
};

static int entry_add(struct kmods *k, struct kmod_module *mod, const char *why);

static char *name_normalise(const char *name)
{
	char *s = strdup(name);

	for (char *p = s; p && *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

static void config_collect(struct kmod_config_iter *it, struct strv *out)
{
	while (it && kmod_config_iter_next(it)) {
		char *name = name_normalise(kmod_config_iter_get_key(it));

		if (name)
			strv_push_unique(out, name);
		free(name);
	}
	kmod_config_iter_free_iter(it);
}

int kmods_open_config(struct kmods **out, const char *moddir, const char *kver,
		      const char *configdir)
{
	const char *paths[] = { configdir, NULL };
	struct kmods *k;
	char dep[4096];

	snprintf(dep, sizeof(dep), "%s/modules.dep", moddir);
	if (access(dep, R_OK) < 0) {
		int r = -errno;

		gen_error("modules for %s: cannot read %s: %s; run depmod -b ROOT %s for a module "
			  "tree installed under ROOT, or pick the kernel version with --kver",
			  kver, dep, strerror(-r), kver);
		return r;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->moddir = strdup(moddir);
	k->kver = strdup(kver);
	k->ctx = kmod_new(moddir, configdir ? paths : NULL);
	if (!k->moddir || !k->kver || !k->ctx) {
		gen_error("modules for %s: cannot set up libkmod on %s", kver, moddir);
		kmods_free(k);
		return -ENOMEM;
	}
	/* Indexes mapped once make thousands of lookups cheap; without them
	 * libkmod reads the text files, slower but right. */
	kmod_load_resources(k->ctx);
	config_collect(kmod_config_get_blacklists(k->ctx), &k->blacklist);
	*out = k;
	return 0;
}

int kmods_open(struct kmods **out, const char *moddir, const char *kver)
{
	return kmods_open_config(out, moddir, kver, NULL);
}

int kmods_moddir_find(const char *root, const char *kver, char *buf, size_t size)
{
	static const char *const layouts[] = { "/lib/modules", "/usr/lib/modules" };

	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		char dep[4096];

		snprintf(buf, size, "%s%s/%s", root ? root : "", layouts[i], kver);
		snprintf(dep, sizeof(dep), "%s/modules.dep", buf);
		if (access(dep, R_OK) == 0)
			return 0;
	}
	gen_error("modules for %s: no modules.dep in %s/lib/modules/%s or %s/usr/lib/modules/%s; "
		  "install the kernel's modules (or run depmod) first", kver, root ? root : "",
		  kver, root ? root : "", kver);
	return -ENOENT;
}

static void entry_free(struct kmods_entry *e)
{
	free(e->name);
	free(e->options);
	strv_free(&e->deps);
	strv_free(&e->pre);
	strv_free(&e->post);
	kmod_module_unref(e->mod);
}

void kmods_free(struct kmods *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n_mods; i++)
		entry_free(&k->mods[i]);
	free(k->mods);
	strv_free(&k->omit);
	strv_free(&k->blacklist);
	kmod_unref(k->ctx);
	free(k->moddir);
	free(k->kver);
	free(k);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kmods_entry *)a)->name, ((const struct kmods_entry *)b)->name);
}

void kmods_sort(struct kmods *k)
{
	if (k->n_mods > 1)
		qsort(k->mods, k->n_mods, sizeof(*k->mods), entry_cmp);
	k->sorted = true;
}

struct kmods_entry *kmods_find(const struct kmods *k, const char *name)
{
	struct kmods_entry key = { .name = (char *)name };

	if (k->sorted && k->n_mods > 0)
		return bsearch(&key, k->mods, k->n_mods, sizeof(*k->mods), entry_cmp);
	for (size_t i = 0; i < k->n_mods; i++)
		if (strcmp(k->mods[i].name, name) == 0)
			return &k->mods[i];
	return NULL;
}

bool kmods_omitted(const struct kmods *k, const char *name)
{
	return strv_contains(&k->omit, name);
}

size_t kmods_count(const struct kmods *k)
{
	size_t n = 0;

	for (size_t i = 0; i < k->n_mods; i++)
		n += !kmods_omitted(k, k->mods[i].name);
	return n;
}

int kmods_omit(struct kmods *k, const char *name)
{
	char *n = name_normalise(name);
	int r;

	if (!n)
		return -ENOMEM;
	r = strv_push_unique(&k->omit, n);
	free(n);
	return r;
}

/* Add every module of list (dependencies or softdeps) and note in names the
 * ones chosen, for the table. */
static int list_add(struct kmods *k, struct kmod_list *list, const char *why, struct strv *names)
{
	struct kmod_list *l;

	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		int r = entry_add(k, m, why);

		if (r == 0 && kmods_find(k, kmod_module_get_name(m)))
			r = strv_push_unique(names, kmod_module_get_name(m));
		kmod_module_unref(m);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Dependencies and softdeps of the entry at index i. The array may move
 * while they are added, so the entry is found again by index each time. */
static int entry_deps_add(struct kmods *k, size_t i, struct kmod_module *mod)
{
	struct kmod_list *deps = kmod_module_get_dependencies(mod), *pre = NULL, *post = NULL;
	struct strv d = STRV_INIT, p = STRV_INIT, q = STRV_INIT;
	const char *name = kmod_module_get_name(mod);
	int r;

	r = list_add(k, deps, name, &d);
	kmod_module_unref_list(deps);
	if (r == 0 && kmod_module_get_softdeps(mod, &pre, &post) == 0) {
		r = list_add(k, pre, name, &p);
		if (r == 0)
			r = list_add(k, post, name, &q);
	}
	kmod_module_unref_list(pre);
	kmod_module_unref_list(post);
	k->mods[i].deps = d;
	k->mods[i].pre = p;
	k->mods[i].post = q;
	return r;
}

static int entry_new(struct kmods *k, struct kmod_module *mod, const char *path)
{
	const char *options = kmod_module_get_options(mod);
	struct kmods_entry *e, *mods = array_grow(k->mods, &k->cap_mods, k->n_mods, sizeof(*mods), 64);

	if (!mods)
		return -ENOMEM;
	k->mods = mods;
	e = &k->mods[k->n_mods];
	memset(e, 0, sizeof(*e));
	e->name = strdup(kmod_module_get_name(mod));
	e->options = strdup(options ? options : "");
	if (!e->name || !e->options) {
		entry_free(e);
		return -ENOMEM;
	}
	e->mod = kmod_module_ref(mod);
	e->path = path;
	e->blacklisted = strv_contains(&k->blacklist, e->name);
	k->n_mods++;
	k->sorted = false;
	return 0;
}

/* Choose mod with what it needs. Built-in modules (no file) and omitted ones
 * are skipped; a module already chosen is not looked at again, which also
 * ends softdep cycles. */
static int entry_add(struct kmods *k, struct kmod_module *mod, const char *why)
{
	const char *name = kmod_module_get_name(mod);
	const char *path = kmod_module_get_path(mod);
	int r;

	if (kmods_omitted(k, name)) {
		gen_info("module %s: omitted (--omit-modules), wanted by %s", name, why);
		return 0;
	}
	if (!path || kmods_find(k, name))
		return 0;
	r = entry_new(k, mod, path);
	if (r < 0)
		return r;
	gen_info("module %s: %s", name, why);
	return entry_deps_add(k, k->n_mods - 1, mod);
}

/* Whether the module belongs to the generic set (host-only keeps to it). */
static bool entry_is_generic(const struct kmods *k, struct kmod_module *mod)
{
	const char *path = kmod_module_get_path(mod);
	size_t n = strlen(k->moddir);

	if (modsets_generic_name(kmod_module_get_name(mod)))
		return true;
	if (!path || strncmp(path, k->moddir, n) != 0 || path[n] != '/')
		return false;
	return modsets_generic_path(path + n + 1);
}

/* Look name up as libkmod does (name, alias, modalias, built-in) and add
 * what it finds. generic_only keeps modules of the generic set. */
static int kmods_resolve(struct kmods *k, const char *name, const char *why, int flags,
			 bool generic_only)
{
	struct kmod_list *list = NULL, *l;
	int r = kmod_module_new_from_lookup(k->ctx, name, &list);

	if (r < 0) {
		gen_error("module %s: lookup in %s failed: %s", name, k->moddir, strerror(-r));
		return r;
	}
	if (!list && !(flags & RESOLVE_MISSING_OK)) {
		gen_error("module %s: not found in %s (neither a module, an alias nor built in); "
			  "check the name with modinfo -k %s %s", name, k->moddir, k->kver, name);
		return -ENOENT;
	}
	if ((flags & RESOLVE_NO_BLACKLISTED) && list) {
		struct kmod_list *kept = NULL;

		r = kmod_module_apply_filter(k->ctx, KMOD_FILTER_BLACKLIST, list, &kept);
		kmod_module_unref_list(list);
		if (r < 0)
			return r;
		list = kept;
	}
	r = 0;
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);

		if (!generic_only || entry_is_generic(k, m))
			r = entry_add(k, m, why);
		kmod_module_unref(m);
		if (r < 0)
			break;
	}
	kmod_module_unref_list(list);
	return r;
}

int kmods_add(struct kmods *k, const char *name, const char *why)
{
	return kmods_resolve(k, name, why, 0, false);
}

int kmods_add_optional(struct kmods *k, const char *name, const char *why)
{
	return kmods_resolve(k, name, why, RESOLVE_MISSING_OK, false);
}

int kmods_add_list(struct kmods *k, const char *const *names, size_t n, bool optional,
		   const char *why)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++)
		r = kmods_resolve(k, names[i], why, optional ? RESOLVE_MISSING_OK : 0, false);
	return r;
}

int kmods_add_modalias(struct kmods *k, const char *modalias, const char *why)
{
	return kmods_resolve(k, modalias, why, RESOLVE_MISSING_OK | RESOLVE_NO_BLACKLISTED, false);
}

/* The module name a modules.dep path stands for: file name without .ko*,
 * '-' as '_'. */
static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *ko = strstr(base, ".ko");
	char *cut = strndup(base, ko ? (size_t)(ko - base) : strlen(base));
	char *name = cut ? name_normalise(cut) : NULL;

	free(cut);
	return name;
}

/* Every module of modules.dep in a generic tree. */
FILE *kmods_index_open(const struct kmods *k, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", k->moddir, name);
	f = fopen(path, "re");
	if (!f) {
		int e = errno;

		gen_error("modules: cannot read %s: %s; run depmod for %s", path, strerror(e), k->kver);
		errno = e;
	}
	return f;
}

static int generic_trees_add(struct kmods *k)
{
	char *line = NULL;
	size_t cap = 0, n = strlen(k->moddir);
	FILE *f = kmods_index_open(k, "modules.dep");
	int r = 0;

	if (!f)
		return -errno;
	while (r == 0 && getline(&line, &cap, f) > 0) {
		char *rel = line, *name;

		line[strcspn(line, ":")] = '\0';
		/* Old depmod wrote absolute paths. */
		if (rel[0] == '/' && strncmp(rel, k->moddir, n) == 0 && rel[n] == '/')
			rel += n + 1;
		if (!modsets_generic_path(rel))
			continue;
		name = name_from_path(rel);
		r = name ? kmods_resolve(k, name, "generic set", RESOLVE_MISSING_OK, false) : -ENOMEM;
		free(name);
	}
	free(line);
	fclose(f);
	return r;
}

int kmods_add_generic(struct kmods *k)
{
	int r = generic_trees_add(k);

	k->generic = true;
	for (size_t i = 0; r == 0 && modsets_generic_names[i]; i++)
		r = kmods_resolve(k, modsets_generic_names[i], "generic set", RESOLVE_MISSING_OK,
				  false);
	return r;
}

/* The root device's drivers and block stack, whatever their kind. */
static int host_root_add(struct kmods *k, const struct host_scan *h)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < h->root_modules.len; i++)
		r = kmods_resolve(k, h->root_modules.items[i], "root device (host-only)",
				  RESOLVE_MISSING_OK, false);
	for (size_t i = 0; r == 0 && i < h->root_modaliases.len; i++)
		r = kmods_resolve(k, h->root_modaliases.items[i], "root device (host-only)",
				  RESOLVE_MISSING_OK | RESOLVE_NO_BLACKLISTED, false);
	if (r == 0 && h->root_fstype) {
		char alias[128];

		/* Most filesystems declare an fs-TYPE alias; a few only their name. */
		snprintf(alias, sizeof(alias), "fs-%s", h->root_fstype);
		r = kmods_resolve(k, alias, "root filesystem (host-only)", RESOLVE_MISSING_OK, false);
		if (r == 0)
			r = kmods_resolve(k, h->root_fstype, "root filesystem (host-only)",
					  RESOLVE_MISSING_OK, false);
	}
	return r;
}

int kmods_add_host(struct kmods *k, const struct host_scan *h)
{
	int r = 0;

	if (!h->root_seen) {
		gen_warn("host-only: cannot see the block device under / (%s root, a container?); "
			 "including the generic module set instead", h->root_fstype ? h->root_fstype : "no");
		return kmods_add_generic(k);
	}
	for (size_t i = 0; r == 0 && i < h->modaliases.len; i++)
		r = kmods_resolve(k, h->modaliases.items[i], "device present (host-only)",
				  RESOLVE_MISSING_OK | RESOLVE_NO_BLACKLISTED, true);
	if (r == 0)
		r = host_root_add(k, h);
	return r;
}
