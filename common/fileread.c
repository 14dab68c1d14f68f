/* fileread: a whole file in memory, its first line, or all of a read on a
 * descriptor. */
#include "common/fileread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Double the buffer, starting at first + 2 bytes (a regular file then fits
 * in one read, with room to see the end and for the NUL), never beyond
 * max + 2: one byte past max tells a file that is too large. */
static int buf_grow(char **buf, size_t *cap, size_t first, size_t max)
{
	size_t want = *cap ? *cap * 2 : first + 2;
	char *grown;

	if (want > max + 2)
		want = max + 2;
	grown = realloc(*buf, want);
	if (!grown)
		return -ENOMEM;
	*buf = grown;
	*cap = want;
	return 0;
}

int file_read_all(const char *path, size_t max, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t used = 0, cap = 0, first = 4096;
	char *buf = NULL;
	int r = 0;

	if (fd < 0)
		return -errno;
	/* A regular file's size is the right first guess; sysfs and /proc
	 * files report sizes that are not their content's. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size <= max)
		first = (size_t)st.st_size;
	for (;;) {
		ssize_t n;

		if (used + 1 >= cap && (r = buf_grow(&buf, &cap, first, max)) < 0)
			break;
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		used += (size_t)n;
		if (used > max) {
			r = -EFBIG;
			break;
		}
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

int file_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return -errno;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok) {
		buf[0] = '\0';
		return -EIO;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

ssize_t file_read_text(const char *path, int oflags, char *buf, size_t size)
{
	int fd;
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC | oflags);
	if (fd < 0)
		return -errno;
	n = file_read_fd(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

int file_read_to_stream(const char *path, FILE *out)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	/* One read at a time: a /proc file is read as the kernel hands it. */
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		fwrite(buf, 1, (size_t)n, out);
	}
	if (n < 0)
		n = -errno;
	close(fd);
	return (int)n;
}

/* One transfer of the loop: a read at the position when off is NULL. */
static ssize_t read_once(int fd, void *buf, size_t len, const uint64_t *off)
{
	return off ? pread(fd, buf, len, (off_t)*off) : read(fd, buf, len);
}

static ssize_t read_loop(int fd, void *buf, size_t len, uint64_t *off)
{
	unsigned char *p = buf;
	size_t n = 0;

	while (n < len) {
		ssize_t got = read_once(fd, p + n, len - n, off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			break;
		n += (size_t)got;
		if (off)
			*off += (uint64_t)got;
	}
	return (ssize_t)n;
}

ssize_t file_read_fd(int fd, void *buf, size_t len)
{
	return read_loop(fd, buf, len, NULL);
}

ssize_t file_read_fd_at(int fd, void *buf, size_t len, uint64_t off)
{
	/* An offset off_t cannot hold is no place in any file. */
	if (off > (uint64_t)INT64_MAX - len)
		return -EINVAL;
	return read_loop(fd, buf, len, &off);
}
