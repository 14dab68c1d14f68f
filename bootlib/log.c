/* log: the init's messages, to /dev/kmsg (or stderr before /dev exists). */
#include "bootlib/log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool debug_on;
static const char *prefix = "lifeboat";

void log_set_debug(bool on)
{
	debug_on = on;
}

void log_set_prefix(const char *name)
{
	prefix = name;
}

/* The kernel rate-limits writes to /dev/kmsg per open file (10 lines per 5 s
 * by default), so each message gets its own open: none is dropped. */
static void log_write(int level, const char *fmt, va_list ap)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "<%d>%s: ", level, prefix);
	int fd;

	if (n < 0)
		return;
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "%s\n", line + 3);
		return;
	}
	if (write(fd, line, strnlen(line, sizeof(line))) < 0)
		fprintf(stderr, "%s\n", line + 3);
	close(fd);
}

#define LOG_FN(fn, level, cond)                 \
	void fn(const char *fmt, ...)           \
	{                                       \
		va_list ap;                     \
		if (!(cond))                    \
			return;                 \
		va_start(ap, fmt);              \
		log_write(level, fmt, ap);      \
		va_end(ap);                     \
	}

LOG_FN(log_error, 3, true)
LOG_FN(log_warn, 4, true)
LOG_FN(log_info, 6, true)
LOG_FN(log_debug, 7, debug_on)

void log_console(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fflush(stdout);
}
