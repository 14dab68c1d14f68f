/* dlsyms: a library's functions, opened at run time (dlopen) into a struct
 * of function pointers by a table of names and offsets, so that an image
 * carries a library only when its feature needs it (libcurl, libtss2,
 * liblzma) and the program links none of them. */
#ifndef LIFEBOAT_BOOTLIB_DLSYMS_H
#define LIFEBOAT_BOOTLIB_DLSYMS_H

#include <stddef.h>

struct dlsyms_entry {
	const char *name;            /* the symbol */
	size_t offset;               /* of its pointer in the caller's struct */
};

#define DLSYMS_ENTRY(type, name, field) { name, offsetof(type, field) }

/* Open soname (it stays open: the loader's handle, shared by later calls)
 * and set each of the n entries' pointers in fns (fns_size bytes).
 * Returns 0; -ENOENT when the library cannot be loaded (why: dlerror()'s
 * text), -ENOSYS when a symbol is missing (why: "SONAME has no NAME"; fns
 * is then partly set, not to be used). */
int dlsyms_load(const char *soname, const struct dlsyms_entry *table, size_t n, void *fns,
		size_t fns_size, char *why, size_t why_size);

#endif
