/* fileread: a whole file in memory. */
#include "common/fileread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
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
