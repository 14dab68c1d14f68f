/* fileread: a whole file in memory, or its first line. */
#ifndef LIFEBOAT_FILEREAD_H
#define LIFEBOAT_FILEREAD_H

#include <stddef.h>

/* Read path to its end into *data (malloc'd, NUL-terminated after *len
 * bytes, so text can be used as a string too). Works for files whose size
 * stat does not tell (sysfs, /proc). Returns 0, -EFBIG past max bytes, or
 * -errno. */
int file_read_all(const char *path, size_t max, char **data, size_t *len);
/* The first line of path, without its line end, into buf (cut at size - 1
 * bytes). Returns 0, -errno when it cannot be opened, or -EIO when it is
 * empty (buf is then ""). For sysfs attributes and one-line files. */
int file_read_line(const char *path, char *buf, size_t size);

#endif
