/* console: the terminal behind /dev/console, for the shell and the prompts. */
#include "bootlib/console.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "bootlib/evloop.h"
#include "bootlib/guest.h"
#include "bootlib/splash.h"
#include "common/fileread.h"

#define CONSOLE_ACTIVE "/sys/class/tty/console/active"

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

size_t console_active_parse(const char *text, char names[][CONSOLE_NAME_MAX], size_t max)
{
	size_t n = 0;

	while (*text && n < max) {
		size_t len = 0;
		bool plain = true;

		while (*text == ' ' || *text == '\n' || *text == '\t')
			text++;
		while (text[len] && text[len] != ' ' && text[len] != '\n' && text[len] != '\t') {
			plain = plain && name_char(text[len]);
			len++;
		}
		if (len && plain && len < CONSOLE_NAME_MAX) {
			memcpy(names[n], text, len);
			names[n++][len] = '\0';
		}
		text += len;
	}
	return n;
}

/* The active consoles' names, read from sysfs; 0 when it cannot be read. */
static size_t active_names(char names[][CONSOLE_NAME_MAX], size_t max)
{
	char text[256];

	if (file_read_line(CONSOLE_ACTIVE, text, sizeof(text)) < 0)
		return 0;
	return console_active_parse(text, names, max);
}

/* "tty0" is the virtual terminal in front: the console is its active VT. */
static void device_path(const char *name, char *out, size_t size)
{
	snprintf(out, size, "/dev/%s", strcmp(name, "tty0") == 0 ? "tty1" : name);
}

void console_tty_path(char *out, size_t size)
{
	char names[CONSOLE_MAX][CONSOLE_NAME_MAX];
	size_t n = active_names(names, CONSOLE_MAX);

	if (n)
		device_path(names[n - 1], out, size);
	else
		snprintf(out, size, "/dev/console");
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

/* Echo off on each console of a secret prompt, and how to restore it. */
struct echo_state {
	struct termios saved[CONSOLE_SEATS];
	bool restore[CONSOLE_SEATS];
	size_t n;   /* the seats when echo went off: guests joining later have none */
};

static void echo_off(const struct console_set *set, struct echo_state *st)
{
	st->n = set->n;
	for (size_t i = 0; i < set->n; i++) {
		struct termios t;

		st->restore[i] = tcgetattr(set->fd[i], &st->saved[i]) == 0;
		if (!st->restore[i])
			continue;
		t = st->saved[i];
		t.c_lflag &= ~(tcflag_t)ECHO;
		st->restore[i] = tcsetattr(set->fd[i], TCSAFLUSH, &t) == 0;
	}
}

/* Echo back on; what was typed on the consoles that did not answer is
 * dropped (a half-typed passphrase must not become the next answer). The
 * newline the person typed was not echoed: it is written now. */
static void echo_restore(const struct console_set *set, const struct echo_state *st)
{
	for (size_t i = 0; i < st->n; i++) {
		if (set->fd[i] < 0 || !st->restore[i])
			continue;
		tcsetattr(set->fd[i], TCSAFLUSH, &st->saved[i]);
		if (write(set->fd[i], "\n", 1) < 0)
			continue;
	}
}

/* The rest of a line longer than the buffer, dropped without waiting. */
static void discard_rest(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char chunk[256];
	ssize_t got;

	while (poll(&pfd, 1, 0) > 0 && (got = read(fd, chunk, sizeof(chunk))) > 0)
		if (chunk[got - 1] == '\n')
			break;
	explicit_bzero(chunk, sizeof(chunk));
}

/* One line from a console poll() found readable. In canonical mode a
 * terminal is readable only once a whole line (or an end of input) is
 * typed, and a read returns at most that line, so this never blocks. */
static int read_ready_line(int fd, char *buf, size_t size)
{
	ssize_t got;
	size_t n;

	do
		got = read(fd, buf, size - 1);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return errno == EAGAIN ? -EAGAIN : -errno;
	if (got == 0)
		return -EIO;
	n = (size_t)got;
	if (buf[n - 1] == '\n')
		n--;
	else if (n == size - 1)
		discard_rest(fd);
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return (int)n;
}

/* A guest knocked: seat it, and show it what the prompt said so far. */
static void seat_guest(struct console_set *set)
{
	int fd = guest_accept(set->listen_fd);

	if (fd < 0)
		return;
	if (set->n >= CONSOLE_SEATS) {
		dprintf(fd, "lifeboat: %d remote logins answer this prompt already\n",
			CONSOLE_GUESTS_MAX);
		close(fd);
		return;
	}
	snprintf(set->path[set->n], sizeof(set->path[0]), "ssh");
	set->guest[set->n] = true;
	set->fd[set->n++] = fd;
	dprintf(fd, "%s", set->said);
}

static int seat_read_line(const struct console_set *set, size_t i, char *buf, size_t size)
{
	return set->guest[i] ? guest_read_line(set->fd[i], buf, size) :
			       read_ready_line(set->fd[i], buf, size);
}

/* plymouth's answer came (or its client ended without one: its seat is
 * dropped, the consoles go on). */
static int splash_line(struct console_set *set, char *buf, size_t size)
{
	int r = plyask_read(&set->ask, buf, size);

	return r >= 0 ? r : -EAGAIN;
}

/* Wait for the first console (or guest, or plymouth) to give a line; drop
 * those that give out. While guests may come (the SSH server runs), the
 * prompt stays even when every console gave out: a headless machine's
 * answer comes over SSH. */
static int first_line(struct console_set *set, char *buf, size_t size, size_t *which)
{
	int fds[CONSOLE_SEATS + 3];
	size_t live = 0;

	for (size_t i = 0; i < set->n; i++)
		live += set->fd[i] >= 0 && !set->guest[i];
	while (live || set->guests || (set->splash && set->ask.fd >= 0)) {
		size_t nfds = set->n, wake, ply;
		int i, r;

		memcpy(fds, set->fd, set->n * sizeof(fds[0]));
		if (set->guests)
			fds[nfds++] = set->listen_fd;
		wake = nfds;
		fds[nfds++] = set->wake_fd > 0 ? set->wake_fd : -1;   /* poll() ignores -1 */
		ply = nfds;
		fds[nfds++] = set->splash ? set->ask.fd : -1;
		i = evloop_wait_input(fds, nfds, set->deadline_ms);
		if (i < 0)
			return i;
		if ((size_t)i == wake)
			return -ECANCELED;
		if ((size_t)i == ply) {
			r = splash_line(set, buf, size);
			if (r >= 0)
				return r;
			continue;
		}
		if ((size_t)i == set->n) {
			seat_guest(set);
			continue;
		}
		r = seat_read_line(set, (size_t)i, buf, size);
		if (r >= 0) {
			if (which)
				*which = (size_t)i;
			return r;
		}
		if (r == -EAGAIN)
			continue;
		close(set->fd[i]);
		set->fd[i] = -1;   /* poll() ignores it from now on */
		if (!set->guest[i])
			live--;
	}
	return -EIO;
}

/* A secret is asked through plymouth too, with what the consoles show. */
static void splash_ask(struct console_set *set, bool secret)
{
	char prompt[PLYASK_PROMPT_MAX];

	if (!set->splash || !secret)
		return;
	plyask_prompt(set->said, prompt, sizeof(prompt));
	plyask_start(&set->ask, prompt[0] ? prompt : "Passphrase:");
}

int console_read_answer(struct console_set *set, char *buf, size_t size, bool secret,
			size_t *which)
{
	struct echo_state st;
	int r;

	if (size < 2)
		return -EINVAL;
	buf[0] = '\0';
	if (secret)
		echo_off(set, &st);
	splash_ask(set, secret);
	r = first_line(set, buf, size, which);
	/* Answered elsewhere (or given up): plymouth's prompt is withdrawn. */
	if (set->splash)
		plyask_cancel(&set->ask);
	if (secret)
		echo_restore(set, &st);
	return r;
}

int console_read_line(int fd, char *buf, size_t size, bool secret)
{
	struct console_set one = { .fd = { fd }, .n = 1 };
	int r;

	evloop_prompt_begin();
	r = console_read_answer(&one, buf, size, secret, NULL);
	evloop_prompt_end();
	return r;
}

/* Open path as one more console of the set, unless it is there already.
 * Returns 0 or -errno. */
static int add_console(struct console_set *set, const char *path)
{
	int fd;

	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->path[i], path) == 0)
			return 0;
	fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	console_make_sane(fd);
	snprintf(set->path[set->n], sizeof(set->path[0]), "%s", path);
	set->guest[set->n] = false;
	set->fd[set->n++] = fd;
	return 0;
}

int console_open_all(struct console_set *set)
{
	char names[CONSOLE_MAX][CONSOLE_NAME_MAX];
	size_t n = active_names(names, CONSOLE_MAX);
	bool ignore_serial;
	int r = 0;

	set->n = 0;
	set->guests = false;
	set->said[0] = '\0';
	set->deadline_ms = 0;
	set->wake_fd = -1;
	set->ask.pid = 0;
	set->ask.fd = -1;
	set->splash = splash_running();
	ignore_serial = set->splash && splash_ignores_serial();
	for (size_t i = 0; i < n; i++) {
		char path[CONSOLE_NAME_MAX + 8];

		if (set->splash && splash_owns_console(names[i], ignore_serial))
			continue;
		device_path(names[i], path, sizeof(path));
		add_console(set, path);
	}
	if (!set->n && !set->splash)
		r = add_console(set, "/dev/console");
	if (r < 0)
		return r;
	evloop_prompt_begin();
	return 0;
}

void console_take_guests(struct console_set *set, const char *path)
{
	int fd = guest_listen(path);

	set->guests = fd >= 0;
	set->listen_fd = fd;
	snprintf(set->guest_path, sizeof(set->guest_path), "%s", path);
}

/* Formatted once: the text is also kept for guests that join later. */
void console_printf_all(struct console_set *set, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(set->said, sizeof(set->said), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < set->n; i++)
		if (set->fd[i] >= 0)
			dprintf(set->fd[i], "%s", set->said);
}

void console_close_all(struct console_set *set)
{
	if (set->splash)
		plyask_cancel(&set->ask);
	for (size_t i = 0; i < set->n; i++)
		if (set->fd[i] >= 0)
			close(set->fd[i]);
	set->n = 0;
	if (set->guests)
		guest_unlisten(set->listen_fd, set->guest_path);
	set->guests = false;
	evloop_prompt_end();
}
