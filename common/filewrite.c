/* filewrite: one value into a kernel attribute (sysfs, procfs), a small
 * text file, or all of a buffer to a descriptor, at its position or at an
 * offset. */
#include "common/filewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int file_write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t n;
	int r = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	close(fd);
	return r;
}

int file_write_text(const char *path, const char *text, int oflags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | oflags, 0644);
	int r;

	if (fd < 0)
		return -errno;
	r = file_write_fd(fd, text, strlen(text));
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int file_write_fd(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int file_write_fd_at(int fd, const void *buf, size_t len, uint64_t off)
{
	const unsigned char *p = buf;

	if (off > (uint64_t)INT64_MAX - len)
		return -EINVAL;
	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}
