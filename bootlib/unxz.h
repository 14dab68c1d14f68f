/* unxz: read an xz-compressed file into memory (the image's modules), or
 * into another file (the programs the image carries xz'd). */
#ifndef LIFEBOAT_UNXZ_H
#define LIFEBOAT_UNXZ_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether the open file fd starts with the xz magic. */
bool unxz_is_xz(int fd);
/* Decompress the whole xz file fd into *out (malloc'd). Returns 0 or -errno
 * (-EINVAL for a damaged stream, -ELIBACC when the image has no liblzma,
 * bootlib/lzmafn.h). */
int unxz_fd(int fd, void **out, size_t *len);
/* Decompress the xz file src into dst with mode, written under a name of
 * its own beside dst and renamed: dst is whole or absent, and two callers
 * at once both end well. Returns 0 or -errno. */
int unxz_file(const char *src, const char *dst, mode_t mode);

#endif
