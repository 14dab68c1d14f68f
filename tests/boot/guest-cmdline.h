/* guest-cmdline: the kernel command line as the static test inits read it
 * (hib-init, hostgen-init). Each init is one file built with -static, so
 * this header holds the definitions. */
#ifndef LIFEBOAT_TESTS_GUEST_CMDLINE_H
#define LIFEBOAT_TESTS_GUEST_CMDLINE_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char cmdline[4096];

/* Read /proc/cmdline once; without it every parameter reads as "". */
static void cmdline_read(void)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	cmdline[n > 0 ? n : 0] = '\0';
	close(fd);
}

/* The value of KEY= on the kernel command line, or "". */
static const char *param(const char *key, char *buf, size_t size)
{
	size_t n = strlen(key);

	for (const char *p = cmdline; (p = strstr(p, key)); p += n) {
		if ((p == cmdline || p[-1] == ' ') && p[n] == '=') {
			size_t len = strcspn(p + n + 1, " \n");

			snprintf(buf, size, "%.*s", (int)len, p + n + 1);
			return buf;
		}
	}
	buf[0] = '\0';
	return buf;
}

#endif
