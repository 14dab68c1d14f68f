/* console: the terminal behind /dev/console, for the shell and the prompts. */
#include "bootlib/console.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define CONSOLE_ACTIVE "/sys/class/tty/console/active"

void console_tty_path(char *out, size_t size)
{
	char line[256];
	FILE *f = fopen(CONSOLE_ACTIVE, "re");
	char *last = NULL;

	snprintf(out, size, "/dev/console");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		char *save = NULL;

		for (char *w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
			last = w;
	}
	fclose(f);
	/* "tty0" is the virtual terminal in front: the console is its active VT. */
	if (last && strcmp(last, "tty0") == 0)
		last = "tty1";
	if (last)
		snprintf(out, size, "/dev/%s", last);
}

/* The control characters every Unix terminal starts with. */
static const struct { int index; cc_t value; } sane_cc[] = {
	{ VINTR, 003 }, { VQUIT, 034 }, { VERASE, 0177 }, { VKILL, 025 },
	{ VEOF, 004 }, { VSTART, 021 }, { VSTOP, 023 }, { VSUSP, 032 },
	{ VREPRINT, 022 }, { VWERASE, 027 }, { VLNEXT, 026 }, { VMIN, 1 }, { VTIME, 0 },
};

int console_make_sane(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) < 0)
		return -errno;
	t.c_iflag = ICRNL | IXON | IXANY | IMAXBEL | IUTF8 | BRKINT;
	t.c_oflag = OPOST | ONLCR;
	t.c_cflag = (t.c_cflag & (CBAUD | CBAUDEX)) | CS8 | CREAD | HUPCL | CLOCAL;
	t.c_lflag = ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
	for (size_t i = 0; i < sizeof(sane_cc) / sizeof(sane_cc[0]); i++)
		t.c_cc[sane_cc[i].index] = sane_cc[i].value;
	if (tcsetattr(fd, TCSANOW, &t) < 0)
		return -errno;
	return 0;
}

static int set_echo(int fd, bool on, struct termios *saved)
{
	struct termios t;

	if (tcgetattr(fd, saved) < 0)
		return -errno;
	t = *saved;
	if (on)
		t.c_lflag |= ECHO;
	else
		t.c_lflag &= ~(tcflag_t)ECHO;
	return tcsetattr(fd, TCSAFLUSH, &t) < 0 ? -errno : 0;
}

int console_read_line(int fd, char *buf, size_t size, bool secret)
{
	struct termios saved;
	bool restore = secret && set_echo(fd, false, &saved) == 0;
	size_t n = 0;
	int r = 0;

	for (;;) {
		char c;
		ssize_t got = read(fd, &c, 1);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			r = got < 0 ? -errno : -EIO;
			break;
		}
		if (c == '\n' || c == '\r')
			break;
		if (n + 1 < size)
			buf[n++] = c;
	}
	buf[n] = '\0';
	if (restore) {
		tcsetattr(fd, TCSAFLUSH, &saved);
		if (write(fd, "\n", 1) < 0)
			r = r ? r : -errno;
	}
	return r < 0 ? r : (int)n;
}
