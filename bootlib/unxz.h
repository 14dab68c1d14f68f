/* unxz: read an xz-compressed file into memory (the image's modules). */
#ifndef LIFEBOAT_UNXZ_H
#define LIFEBOAT_UNXZ_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the open file fd starts with the xz magic. */
bool unxz_is_xz(int fd);
/* Decompress the whole xz file fd into *out (malloc'd). Returns 0 or -errno
 * (-EINVAL for a damaged stream). */
int unxz_fd(int fd, void **out, size_t *len);

#endif
