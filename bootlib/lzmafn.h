/* lzmafn: liblzma's decoder, opened at run time (dlopen), so that only the
 * images with xz streams for the init to unpack carry the library
 * (gen/feature/unxz_pack.c adds it); no program of the image links it. */
#ifndef LIFEBOAT_BOOTLIB_LZMAFN_H
#define LIFEBOAT_BOOTLIB_LZMAFN_H

#include <lzma.h>

/* The functions bootlib/unxz.c calls, typed as lzma.h declares them. */
struct lzmafn {
	__typeof__(lzma_stream_footer_decode) *stream_footer_decode;
	__typeof__(lzma_index_buffer_decode) *index_buffer_decode;
	__typeof__(lzma_index_uncompressed_size) *index_uncompressed_size;
	__typeof__(lzma_index_end) *index_end;
	__typeof__(lzma_stream_buffer_decode) *stream_buffer_decode;
};

/* Fill fn from the library soname (LAYOUT_LIBLZMA). Returns 0, or
 * -ELIBACC when it cannot be opened or lacks one of the functions; fn is
 * then untouched. */
int lzmafn_open(struct lzmafn *fn, const char *soname);

#endif
