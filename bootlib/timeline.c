/* timeline: record boot phases with their monotonic time. */
#include "bootlib/timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TIMELINE_MAX 64
#define TIMELINE_LINE 160

/* Bounded and static: the timeline is small and PID 1 should not allocate
 * for it. Marks past the bound are dropped, the boot goes on. */
static char lines[TIMELINE_MAX][TIMELINE_LINE];
static unsigned int n_lines, n_written;
static int can_write;

void timeline_mark(const char *phase, const char *fmt, ...)
{
	struct timespec ts;
	char *line;
	int n;

	if (n_lines >= TIMELINE_MAX)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	line = lines[n_lines++];
	n = snprintf(line, TIMELINE_LINE, "%lld.%06ld %s", (long long)ts.tv_sec,
		     ts.tv_nsec / 1000, phase);
	if (fmt && n > 0 && n < TIMELINE_LINE - 2) {
		va_list ap;

		line[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(line + n, (size_t)(TIMELINE_LINE - n), fmt, ap);
		va_end(ap);
	}
	if (can_write)
		timeline_flush();
}

int timeline_flush(void)
{
	int fd;

	if (mkdir("/run/initramfs", 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = open(TIMELINE_PATH, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	for (; n_written < n_lines; n_written++)
		dprintf(fd, "%s\n", lines[n_written]);
	close(fd);
	can_write = 1;
	return 0;
}
