/* curlfn: libcurl, opened at run time (dlopen). */
#include "bootlib/curlfn.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "common/layout.h"

static const struct {
	const char *name;
	size_t offset;
} curl_symbols[] = {
#define S(name, field) { name, offsetof(struct curlfn, field) }
	S("curl_global_init", global_init),
	S("curl_easy_init", easy_init),
	S("curl_easy_setopt", easy_setopt),
	S("curl_easy_perform", easy_perform),
	S("curl_easy_getinfo", easy_getinfo),
	S("curl_easy_cleanup", easy_cleanup),
	S("curl_easy_strerror", easy_strerror),
	S("curl_slist_append", slist_append),
	S("curl_slist_free_all", slist_free_all),
	S("curl_multi_init", multi_init),
	S("curl_multi_add_handle", multi_add_handle),
	S("curl_multi_remove_handle", multi_remove_handle),
	S("curl_multi_perform", multi_perform),
	S("curl_multi_poll", multi_poll),
	S("curl_multi_info_read", multi_info_read),
	S("curl_multi_cleanup", multi_cleanup),
#undef S
};

int curlfn_open(struct curlfn *fn, char *why, size_t why_size)
{
	static void *lib;

	if (!lib)
		lib = dlopen(LAYOUT_LIBCURL, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, why_size, "%s", dlerror());
		return -ENOENT;
	}
	for (size_t i = 0; i < sizeof(curl_symbols) / sizeof(curl_symbols[0]); i++) {
		void *sym = dlsym(lib, curl_symbols[i].name);

		if (!sym) {
			snprintf(why, why_size, "%s has no %s", LAYOUT_LIBCURL, curl_symbols[i].name);
			return -ENOENT;
		}
		/* POSIX guarantees data and function pointers convert (dlsym). */
		*(void **)((char *)fn + curl_symbols[i].offset) = sym;
	}
	fn->global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}
