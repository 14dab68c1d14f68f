/* filewrite: one value into a kernel attribute (sysfs, procfs), a small
 * text file, or all of a buffer to a descriptor, at its position or at an
 * offset. */
#ifndef LIFEBOAT_FILEWRITE_H
#define LIFEBOAT_FILEWRITE_H

#include <stddef.h>
#include <stdint.h>

/* Write value to the existing file path in one write(2), as the kernel's
 * attributes want it. Returns 0 or -errno. */
int file_write_value(const char *path, const char *value);
/* path written with text (mode 0644), created when missing; oflags are
 * added to open(2)'s O_WRONLY | O_CREAT (O_EXCL: only a new file;
 * O_TRUNC: replace it). Returns 0 or -errno. */
int file_write_text(const char *path, const char *text, int oflags);
/* write(2) all of buf to fd, retrying on EINTR and short writes. Returns 0
 * or -errno. */
int file_write_fd(int fd, const void *buf, size_t len);
/* pwrite(2) all of buf at offset off, through signals and short writes.
 * Returns 0, -EIO when the kernel takes nothing more, -EINVAL for an
 * offset no file can have, or -errno. */
int file_write_fd_at(int fd, const void *buf, size_t len, uint64_t off);

#endif
