/* unlock: relay between the login's terminal and the waiting prompt.
 *
 * The passphrase passes through here and goes nowhere else: no log, no
 * file; the buffers are wiped. */
#include "remote/unlock.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "bootlib/clock.h"

#define LINE_MAX_BYTES 1024
#define POLL_STEP_MS 200

static int connect_once(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (r == 0)
		return fd;
	r = -errno;
	close(fd);
	return r;
}

/* The prompt may not be there yet (its container not yet seen). */
static int connect_waiting(const char *path, int out, unsigned int wait_ms)
{
	uint64_t deadline = clock_now_ms() + wait_ms;
	bool said = false;

	for (;;) {
		int fd = connect_once(path);

		if (fd >= 0 || (fd != -ENOENT && fd != -ECONNREFUSED))
			return fd;
		if (clock_now_ms() >= deadline)
			return -ENOENT;
		if (!said)
			dprintf(out, "lifeboat: no passphrase prompt waits yet; waiting up to %u s\n",
				wait_ms / 1000);
		said = true;
		poll(NULL, 0, POLL_STEP_MS);
	}
}

struct relay {
	int sock, in, out;
	char line[LINE_MAX_BYTES];
	size_t len;
	bool in_ended;
	bool prompt_spoke;   /* since the last line sent: the next may go */
};

/* Send the first whole line of the input, if the prompt is ready for it. */
static int send_line(struct relay *r)
{
	char *nl = memchr(r->line, '\n', r->len);
	size_t n;

	if (!nl || !r->prompt_spoke)
		return 0;
	n = (size_t)(nl - r->line) + 1;
	if (write(r->sock, r->line, n) != (ssize_t)n)
		return -EIO;
	memmove(r->line, r->line + n, r->len - n);
	r->len -= n;
	explicit_bzero(r->line + r->len, n);
	r->prompt_spoke = false;
	return 0;
}

static int from_prompt(struct relay *r)
{
	char buf[1024];
	ssize_t got = read(r->sock, buf, sizeof(buf));

	if (got <= 0)
		return got == 0 ? 1 : -errno;
	if (write(r->out, buf, (size_t)got) < 0)
		return -errno;
	r->prompt_spoke = true;
	return 0;
}

static void from_input(struct relay *r)
{
	ssize_t got;

	if (r->len == sizeof(r->line)) {
		/* A line longer than any passphrase: keep its end out. */
		r->len = 0;
	}
	got = read(r->in, r->line + r->len, sizeof(r->line) - r->len);
	if (got <= 0) {
		r->in_ended = true;
		/* A last line without its newline is still an answer. */
		if (r->len && r->len < sizeof(r->line) && r->line[r->len - 1] != '\n')
			r->line[r->len++] = '\n';
		return;
	}
	r->len += (size_t)got;
}

/* Relay until the prompt ends (1) or fails (-errno). After the input
 * ended, the prompt has UNLOCK_WAIT_MS to speak before the login leaves. */
static int relay_loop(struct relay *r)
{
	for (;;) {
		struct pollfd pfds[2] = { { .fd = r->sock, .events = POLLIN },
					  { .fd = r->in_ended ? -1 : r->in, .events = POLLIN } };
		bool idle = r->in_ended && !memchr(r->line, '\n', r->len);
		int n = poll(pfds, 2, idle ? UNLOCK_WAIT_MS : -1), res = 0;

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n == 0)
			return -ETIMEDOUT;
		if (n > 0 && pfds[0].revents)
			res = from_prompt(r);
		if (res != 0)
			return res;
		if (n > 0 && pfds[1].revents)
			from_input(r);
		if (send_line(r) < 0)
			return -EIO;
	}
}

int unlock_relay(const char *path, int in, int out, unsigned int wait_ms)
{
	struct relay r = { .in = in, .out = out };
	struct termios saved, quiet;
	bool tty = tcgetattr(in, &saved) == 0;
	int res;

	r.sock = connect_waiting(path, out, wait_ms);
	if (r.sock < 0) {
		if (r.sock == -ENOENT)
			dprintf(out, "lifeboat: no passphrase prompt appeared; nothing to unlock\n");
		return r.sock;
	}
	if (tty) {
		quiet = saved;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(in, TCSAFLUSH, &quiet);
	}
	res = relay_loop(&r);
	if (tty)
		tcsetattr(in, TCSAFLUSH, &saved);
	explicit_bzero(r.line, sizeof(r.line));
	close(r.sock);
	if (res == -ETIMEDOUT)
		dprintf(out, "\nlifeboat: the input ended; the prompt still waits on the console\n");
	return res < 0 ? res : 0;
}
