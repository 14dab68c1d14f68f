/* lzmafn: liblzma's decoder, opened at run time (dlopen). */
#include "bootlib/lzmafn.h"

#include <errno.h>

#include "bootlib/dlsyms.h"

#define S(name, field) DLSYMS_ENTRY(struct lzmafn, name, field)
static const struct dlsyms_entry lzma_symbols[] = {
	S("lzma_stream_footer_decode", stream_footer_decode),
	S("lzma_index_buffer_decode", index_buffer_decode),
	S("lzma_index_uncompressed_size", index_uncompressed_size),
	S("lzma_index_end", index_end),
	S("lzma_stream_buffer_decode", stream_buffer_decode),
};
#undef S

int lzmafn_open(struct lzmafn *fn, const char *soname)
{
	struct lzmafn found;
	char why[256];

	/* Which of the two it was matters to no caller: the image lacks it. */
	if (dlsyms_load(soname, lzma_symbols, sizeof(lzma_symbols) / sizeof(lzma_symbols[0]),
			&found, sizeof(found), why, sizeof(why)) < 0)
		return -ELIBACC;
	*fn = found;
	return 0;
}
