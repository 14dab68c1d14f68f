/* addfile: an --add-files (add-files =) item, SRC[:DST]: the host's file
 * SRC put in the image at DST, or at SRC's own path when DST is not given. */
#ifndef LIFEBOAT_GEN_ADDFILE_H
#define LIFEBOAT_GEN_ADDFILE_H

#include <stddef.h>

/* SRC of item into src. Returns 0, or -ENAMETOOLONG when it does not fit. */
int addfile_src(const char *item, char *src, size_t size);
/* Where item goes in the image: DST, or item itself (SRC) without one. */
const char *addfile_dst(const char *item);

#endif
