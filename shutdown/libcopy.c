/* libcopy: a loaded library and the objects it needs, copied by the
 * loader's own records (its link map and each object's dynamic section). */
#include "shutdown/libcopy.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "shutdown/leave.h"

/* The loader's own type for a dynamic section entry (ElfW(Dyn)). */
typedef __typeof__(*((struct link_map *)0)->l_ld) link_dyn;

/* Most loaders relocate the dynamic section's addresses in place; some
 * architectures' (a read-only section) leave them relative to the base. */
static const char *dyn_pointer(const struct link_map *m, uintptr_t p)
{
	return (const char *)(p < m->l_addr ? m->l_addr + p : p);
}

static const char *strtab_of(const struct link_map *m)
{
	for (const link_dyn *d = m->l_ld; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_STRTAB)
			return dyn_pointer(m, d->d_un.d_ptr);
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The loaded object whose file is called name (a DT_NEEDED soname). */
static struct link_map *loaded_named(struct link_map *any, const char *name)
{
	while (any->l_prev)
		any = any->l_prev;
	for (; any; any = any->l_next)
		if (any->l_name[0] == '/' && strcmp(base_name(any->l_name), name) == 0)
			return any;
	return NULL;
}

static void add_once(struct link_map **set, size_t *n, struct link_map *m)
{
	for (size_t i = 0; i < *n; i++)
		if (set[i] == m)
			return;
	if (*n < LIBCOPY_MAX)
		set[(*n)++] = m;
}

/* set[0] and what each member needs, as far as it is loaded. */
static size_t needed_closure(struct link_map **set)
{
	size_t n = 1;

	for (size_t i = 0; i < n; i++) {
		const char *strtab = strtab_of(set[i]);

		for (const link_dyn *d = set[i]->l_ld; strtab && d->d_tag != DT_NULL; d++) {
			struct link_map *m = d->d_tag == DT_NEEDED ?
					     loaded_named(set[i], strtab + d->d_un.d_val) : NULL;

			if (m)
				add_once(set, &n, m);
		}
	}
	return n;
}

/* mkdir -p root/dir, for a dir that starts with '/'. */
static int make_path(const char *root, const char *dir)
{
	char path[PATH_MAX];
	size_t start = strlen(root);

	if ((size_t)snprintf(path, sizeof(path), "%s%s", root, dir) >= sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + start + 1; ; p++) {
		bool end = *p == '\0';

		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (end)
			return 0;
		*p = '/';
	}
}

int libcopy_needed(const char *soname, const char *root)
{
	struct link_map *set[LIBCOPY_MAX];
	char dir[PATH_MAX], dst[PATH_MAX];
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t n;
	int r;

	if (!lib)
		return -ENOENT;
	if (dlinfo(lib, RTLD_DI_LINKMAP, &set[0]) < 0 || set[0]->l_name[0] != '/') {
		dlclose(lib);
		return -ENOENT;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(base_name(set[0]->l_name) - set[0]->l_name),
		 set[0]->l_name);
	r = make_path(root, dir);
	n = needed_closure(set);
	for (size_t i = 0; i < n && r == 0; i++) {
		if ((size_t)snprintf(dst, sizeof(dst), "%s%s%s", root, dir,
				     base_name(set[i]->l_name)) >= sizeof(dst))
			r = -ENAMETOOLONG;
		else
			r = shutdown_leave_copy_file(set[i]->l_name, dst, 0644);
	}
	dlclose(lib);
	return r < 0 ? r : (int)n;
}
