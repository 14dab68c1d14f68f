/* dlsyms: a table of a library's functions, opened at run time. */
#include "bootlib/dlsyms.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int dlsyms_load(const char *soname, const struct dlsyms_entry *table, size_t n, void *fns,
		size_t fns_size, char *why, size_t why_size)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		snprintf(why, why_size, "%s", dlerror());
		return -ENOENT;
	}
	for (size_t i = 0; i < n; i++) {
		void *sym = dlsym(lib, table[i].name);

		if (!sym || table[i].offset > fns_size - sizeof(sym)) {
			snprintf(why, why_size, "%s has no %s", soname, table[i].name);
			return -ENOSYS;
		}
		/* POSIX guarantees data and function pointers convert (dlsym). */
		memcpy((char *)fns + table[i].offset, &sym, sizeof(sym));
	}
	return 0;
}
