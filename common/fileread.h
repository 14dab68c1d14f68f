/* fileread: a whole file in memory. */
#ifndef LIFEBOAT_FILEREAD_H
#define LIFEBOAT_FILEREAD_H

#include <stddef.h>

/* Read path to its end into *data (malloc'd, NUL-terminated after *len
 * bytes, so text can be used as a string too). Works for files whose size
 * stat does not tell (sysfs, /proc). Returns 0, -EFBIG past max bytes, or
 * -errno. */
int file_read_all(const char *path, size_t max, char **data, size_t *len);

#endif
