/* fileread: a whole file in memory, its first line, or all of a read on a
 * descriptor. */
#ifndef LIFEBOAT_FILEREAD_H
#define LIFEBOAT_FILEREAD_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/* Read path to its end into *data (malloc'd, NUL-terminated after *len
 * bytes, so text can be used as a string too). Works for files whose size
 * stat does not tell (sysfs, /proc). Returns 0, -EFBIG past max bytes, or
 * -errno. */
int file_read_all(const char *path, size_t max, char **data, size_t *len);
/* The first line of path, without its line end, into buf (cut at size - 1
 * bytes). Returns 0, -errno when it cannot be opened, or -EIO when it is
 * empty (buf is then ""). For sysfs attributes and one-line files. */
int file_read_line(const char *path, char *buf, size_t size);
/* A small file (a /proc or sysfs attribute, a one-line state or config
 * file) into buf: up to size - 1 bytes, NUL-terminated, the rest not read.
 * It is read straight into buf, so a secret in it has no other copy in
 * memory (stdio's buffer would be one). oflags are added to open(2)'s
 * (O_NOFOLLOW). Returns its length, or -errno with buf "". */
ssize_t file_read_text(const char *path, int oflags, char *buf, size_t size);
/* All of path written to out, as it is (a report quoting a file). Returns
 * 0, or -errno when it cannot be opened or read (out then has what came
 * before: the caller says what is missing). */
int file_read_to_stream(const char *path, FILE *out);
/* read(2) len bytes of fd into buf, or up to its end, through signals and
 * short reads. Returns how many were read (less than len only at the
 * end), or -errno. */
ssize_t file_read_fd(int fd, void *buf, size_t len);
/* The same with pread(2) from offset off (the position is not moved);
 * -EINVAL for an offset no file can have. */
ssize_t file_read_fd_at(int fd, void *buf, size_t len, uint64_t off);

#endif
