/* gunzip: read a gzip-compressed file into memory (the image's modules). */
#ifndef LIFEBOAT_GUNZIP_H
#define LIFEBOAT_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the open file fd starts with the gzip magic. */
bool gunzip_is_gzip(int fd);
/* Inflate the whole gzip file fd into *out (malloc'd). Returns 0 or -errno
 * (-EINVAL for a damaged stream). */
int gunzip_fd(int fd, void **out, size_t *len);

#endif
