/* libdeps: the shared libraries a binary needs, found as the dynamic loader would.
 *
 * Nothing is executed (the binary may be for another machine): the ELF files
 * are read with elf_read_fd() and the search follows ld.so(8), breadth-first
 * over DT_NEEDED as the loader loads:
 *   1. DT_RPATH of the needing object and of the objects that loaded it, up
 *      to the binary, when the needing object has no DT_RUNPATH (an object
 *      with both has its DT_RPATH ignored by the loader);
 *   2. DT_RUNPATH of the needing object;
 *   3. the directories of /etc/ld.so.conf (what ldconfig puts in its cache);
 *   4. the built-in directories for the machine.
 * A name already loaded (by DT_NEEDED name or DT_SONAME, the interpreter
 * included) is not searched again. A candidate counts only if it is ELF of
 * the binary's class, byte order and machine, so 32-bit libraries in
 * /usr/lib32 are skipped for a 64-bit binary. An object that imports
 * pthread_cancel or pthread_exit also needs libgcc_s.so.1, which glibc
 * dlopen()s to unwind the thread (without it the program aborts:
 * "libgcc_s.so.1 must be installed for pthread_exit to work").
 */
#include "gen/elf/libdeps.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/array.h"
#include "gen/elf/elf.h"
#include "gen/elf/ldconf.h"
#include "gen/elf/ldsearch.h"
#include "gen/elf/rootpath.h"
#include "gen/gen_report.h"

struct dep_obj {
	char *path;           /* inside the root, as found */
	char *origin;         /* what $ORIGIN means in its paths */
	struct elf_deps elf;
	long loader;          /* index of the object that needed it first; -1 */
};

struct dep_walk {
	const char *root;
	const char *binary;
	struct dep_obj *objs;
	size_t n, cap;
	struct strv loaded;   /* names that need no search any more */
	struct strv conf;     /* from ld.so.conf */
	struct strv builtin;  /* the loader's default directories */
};

static int walk_add(struct dep_walk *w, const char *path, const char *origin, struct elf_deps *elf, long loader)
{
	struct dep_obj *o, *objs = array_grow(w->objs, &w->cap, w->n, sizeof(*objs), 16);

	if (!objs)
		return -ENOMEM;
	w->objs = objs;
	o = &w->objs[w->n];
	o->path = strdup(path);
	o->origin = strdup(origin);
	if (!o->path || !o->origin) {
		free(o->path);
		free(o->origin);
		return -ENOMEM;
	}
	o->elf = *elf;
	memset(elf, 0, sizeof(*elf));
	o->loader = loader;
	w->n++;
	return 0;
}

static bool walk_has_path(const struct dep_walk *w, const char *path)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->objs[i].path, path) == 0)
			return true;
	return false;
}

static void walk_free(struct dep_walk *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->objs[i].path);
		free(w->objs[i].origin);
		elf_deps_free(&w->objs[i].elf);
	}
	free(w->objs);
	strv_free(&w->loaded);
	strv_free(&w->conf);
	strv_free(&w->builtin);
}

/* The directory part of path ("/" for a file at the top). */
static void path_dirname(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	int n = slash && slash != path ? (int)(slash - path) : 1;

	snprintf(out, size, "%.*s", n, slash ? path : "/");
}

/* "." or ".." in a directory ($ORIGIN/../lib) is resolved, so the image gets
 * a clean path; other directories are kept as written (multiarch paths,
 * /lib64 symlinks). */
static bool path_has_dots(const char *dir)
{
	for (const char *p = dir; (p = strchr(p, '/')); p++) {
		size_t n = strcspn(p + 1, "/");

		if ((n == 1 && p[1] == '.') || (n == 2 && p[1] == '.' && p[2] == '.'))
			return true;
	}
	return false;
}

static bool elf_same_target(const struct elf_deps *a, const struct elf_deps *b)
{
	return a->elf_class == b->elf_class && a->byte_order == b->byte_order && a->machine == b->machine;
}

/* Load path (inside the root) if it is a library the binary can use. */
static int candidate_load(const struct dep_walk *w, const char *path, struct elf_deps *elf)
{
	int fd = rootpath_open(w->root, path, O_RDONLY);
	int r;

	if (fd < 0)
		return fd;
	r = elf_read_fd(fd, elf);
	close(fd);
	if (r < 0)
		return r;
	if (!elf_same_target(elf, &w->objs[0].elf)) {
		elf_deps_free(elf);
		return -ENOEXEC;
	}
	return 0;
}

static int candidate_in_dir(const struct dep_walk *w, const char *dir, const char *name, char *path, size_t size,
			    struct elf_deps *elf)
{
	char clean[PATH_MAX];
	int n;

	if (path_has_dots(dir)) {
		if (rootpath_resolve(w->root, dir, clean, sizeof(clean)) < 0)
			return -ENOENT;
		dir = clean;
	}
	n = snprintf(path, size, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return candidate_load(w, path, elf);
}

static int dirs_add_expanded(const struct dep_obj *o, const struct strv *entries, struct strv *dirs)
{
	int r = 0;

	for (size_t i = 0; i < entries->len && r == 0; i++)
		r = ldsearch_expand(&o->elf, o->origin, entries->items[i], dirs);
	return r;
}

/* The directories searched for what object i needs, in the loader's order. */
static int walk_search_dirs(const struct dep_walk *w, size_t i, struct strv *dirs)
{
	const struct dep_obj *o = &w->objs[i];
	int r = 0;

	if (o->elf.runpath.len == 0)
		for (long l = (long)i; l >= 0 && r == 0; l = w->objs[l].loader)
			if (w->objs[l].elf.runpath.len == 0)
				r = dirs_add_expanded(&w->objs[l], &w->objs[l].elf.rpath, dirs);
	if (r == 0)
		r = dirs_add_expanded(o, &o->elf.runpath, dirs);
	for (size_t k = 0; k < w->conf.len && r == 0; k++)
		r = strv_push_unique(dirs, w->conf.items[k]);
	for (size_t k = 0; k < w->builtin.len && r == 0; k++)
		r = strv_push_unique(dirs, w->builtin.items[k]);
	return r;
}

/* Find name for object i: 0 with path and elf filled, -ENOENT, -ENOMEM. */
static int walk_find(const struct dep_walk *w, size_t i, const char *name, char *path, size_t size,
		     struct elf_deps *elf)
{
	struct strv dirs = STRV_INIT;
	int r;

	/* A name with a slash is a path, not searched for. */
	if (strchr(name, '/')) {
		if (name[0] != '/' || snprintf(path, size, "%s", name) >= (int)size)
			return -ENOENT;
		return candidate_load(w, path, elf) == 0 ? 0 : -ENOENT;
	}
	r = walk_search_dirs(w, i, &dirs);
	for (size_t k = 0; k < dirs.len && r == 0; k++) {
		int found = candidate_in_dir(w, dirs.items[k], name, path, size, elf);

		/* Anything but a usable library means: try the next directory. */
		if (found == 0 || found == -ENOMEM) {
			strv_free(&dirs);
			return found;
		}
	}
	strv_free(&dirs);
	return r < 0 ? r : -ENOENT;
}

/* " under ROOT" for messages about a sysroot, "" for the host. */
static const char *root_word(const struct dep_walk *w)
{
	return rootpath_is_host(w->root) ? "" : " under ";
}

static const char *root_name(const struct dep_walk *w)
{
	return rootpath_is_host(w->root) ? "" : w->root;
}

static void report_missing(const struct dep_walk *w, size_t i, const char *name)
{
	char through[PATH_MAX + 16] = "";

	if (i > 0)
		snprintf(through, sizeof(through), " (through %s)", w->objs[i].path);
	gen_error("%s needs %s%s, which is in none of the library directories%s%s: is the package "
		  "that provides it installed? If the library is elsewhere, add it with --add-files",
		  w->binary, name, through, root_word(w), root_name(w));
}

/* A library is known by the name it was needed as and by its soname. */
static int walk_mark_loaded(struct dep_walk *w, const char *name, const struct elf_deps *elf)
{
	int r = strv_push_unique(&w->loaded, name);

	if (r == 0 && elf->soname)
		r = strv_push_unique(&w->loaded, elf->soname);
	return r;
}

static int walk_need(struct dep_walk *w, size_t i, const char *name)
{
	struct elf_deps elf;
	char path[PATH_MAX], origin[PATH_MAX];
	int r;

	if (strv_contains(&w->loaded, name))
		return 0;
	r = walk_find(w, i, name, path, sizeof(path), &elf);
	if (r == -ENOENT)
		report_missing(w, i, name);
	if (r < 0)
		return r;
	r = walk_mark_loaded(w, name, &elf);
	path_dirname(path, origin, sizeof(origin));
	if (r == 0 && !walk_has_path(w, path))
		r = walk_add(w, path, origin, &elf, (long)i);
	gen_info("%s: %s is %s", w->objs[i].path, name, path);
	elf_deps_free(&elf);
	return r;
}

/* Breadth-first, as the loader loads; every missing library is reported
 * before the walk fails. */
static int walk_run(struct dep_walk *w)
{
	int missing = 0;

	for (size_t i = 0; i < w->n; i++) {
		for (size_t k = 0; k <= w->objs[i].elf.needed.len; k++) {
			/* After its DT_NEEDED, what glibc dlopen()s for it. */
			const char *name = k < w->objs[i].elf.needed.len ? w->objs[i].elf.needed.items[k] :
					   w->objs[i].elf.unwinds ? ELF_UNWIND_LIB : NULL;
			int r = name ? walk_need(w, i, name) : 0;

			if (r == -ENOENT)
				missing = r;
			else if (r < 0)
				return r;
		}
	}
	return missing;
}

static int walk_add_interp(struct dep_walk *w, struct strv *out)
{
	const char *interp = w->objs[0].elf.interp;
	struct elf_deps elf;
	char *base;
	int r;

	if (!interp)
		return 0;
	r = candidate_load(w, interp, &elf);
	if (r < 0) {
		gen_error("%s: its program interpreter %s%s%s cannot be used (%s): is the C library "
			  "package for its machine installed?", w->binary, interp, root_word(w), root_name(w),
			  r == -ENOEXEC ? "not ELF for the same machine" : strerror(-r));
		return r == -ENOEXEC ? -ENOENT : r;
	}
	base = strrchr(interp, '/');
	r = walk_mark_loaded(w, base ? base + 1 : interp, &elf);
	elf_deps_free(&elf);
	return r == 0 ? strv_push_unique(out, interp) : r;
}

static int walk_start(struct dep_walk *w, const char *binary)
{
	struct elf_deps elf;
	char real[PATH_MAX], origin[PATH_MAX];
	int fd = rootpath_open(w->root, binary, O_RDONLY);
	int r = fd;

	if (fd >= 0) {
		r = elf_read_fd(fd, &elf);
		close(fd);
	}
	if (r == -ENOEXEC)
		return r;
	if (r < 0) {
		gen_error("cannot read %s to find the libraries it needs: %s", binary, strerror(-r));
		return r;
	}
	/* The loader takes the main program's $ORIGIN from its real path. */
	if (rootpath_resolve(w->root, binary, real, sizeof(real)) < 0)
		snprintf(real, sizeof(real), "%s", binary);
	path_dirname(real, origin, sizeof(origin));
	r = walk_add(w, binary, origin, &elf, -1);
	elf_deps_free(&elf);
	return r;
}

/* A relative binary is taken from the working directory on the host; in
 * another tree there is no working directory to take it from. */
static int binary_absolute(const char *root, const char *binary, char *out, size_t size)
{
	char cwd[PATH_MAX];
	int n;

	if (binary[0] == '/')
		n = snprintf(out, size, "%s", binary);
	else if (rootpath_is_host(root) && getcwd(cwd, sizeof(cwd)))
		n = snprintf(out, size, "%s/%s", cwd, binary);
	else
		n = -1;
	if (n < 0 || (size_t)n >= size) {
		gen_error("%s: give the binary by its absolute path inside %s", binary, root);
		return -EINVAL;
	}
	return 0;
}

/* The walk, with soname (or NULL) needed by the binary besides its own
 * DT_NEEDED: what it would dlopen() by that name. */
static int resolve(const char *sysroot, const char *binary, const char *soname, struct strv *out)
{
	struct dep_walk w = { .root = sysroot, .binary = binary };
	char path[PATH_MAX];
	int r = binary_absolute(sysroot, binary, path, sizeof(path));

	if (r == 0)
		r = walk_start(&w, path);
	if (r == -ENOEXEC && !soname) {
		gen_info("%s is not an ELF file; no libraries added for it", binary);
		walk_free(&w);
		return 0;
	}
	if (r == 0 && soname)
		r = strv_push(&w.objs[0].elf.needed, soname);
	if (r == 0)
		r = ldconf_read(sysroot, "/etc/ld.so.conf", &w.conf);
	if (r == 0)
		r = ldsearch_defaults(&w.objs[0].elf, &w.builtin);
	if (r == 0)
		r = walk_add_interp(&w, out);
	if (r == 0)
		r = walk_run(&w);
	for (size_t i = 1; i < w.n && r == 0; i++)
		r = strv_push_unique(out, w.objs[i].path);
	walk_free(&w);
	return r;
}

int libdeps_resolve(const char *sysroot, const char *binary, struct strv *out)
{
	return resolve(sysroot, binary, NULL, out);
}

int libdeps_resolve_dlopen(const char *sysroot, const char *binary, const char *soname,
			   struct strv *out)
{
	return resolve(sysroot, binary, soname, out);
}
