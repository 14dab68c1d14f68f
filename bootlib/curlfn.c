/* curlfn: libcurl, opened at run time (dlopen). */
#include "bootlib/curlfn.h"

#include <errno.h>

#include "bootlib/dlsyms.h"
#include "common/layout.h"

#define S(name, field) DLSYMS_ENTRY(struct curlfn, name, field)
static const struct dlsyms_entry curl_symbols[] = {
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
};
#undef S

int curlfn_open(struct curlfn *fn, char *why, size_t why_size)
{
	int r = dlsyms_load(LAYOUT_LIBCURL, curl_symbols, sizeof(curl_symbols) / sizeof(curl_symbols[0]),
			    fn, sizeof(*fn), why, why_size);

	/* Counted by libcurl: a second call only adds one to its count. */
	if (r == 0)
		fn->global_init(CURL_GLOBAL_DEFAULT);
	return r < 0 ? -ENOENT : 0;
}
