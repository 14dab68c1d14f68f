/* plyask: `plymouth ask-for-password` as a child, its answer on a pipe. */
#include "bootlib/plyask.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/splash.h"

/* Once the client wrote, it ends at once; a client that keeps the pipe
 * open longer than this is not waited for. */
#define PLYASK_END_MS 2000

static bool blank(char c)
{
	return (unsigned char)c <= ' ' || c == 0x7f;
}

void plyask_prompt(const char *said, char *out, size_t size)
{
	static const char tag[] = "lifeboat: ";
	size_t n = 0;
	bool line_start = true, space = false;

	if (!size)
		return;
	for (const char *p = said; *p && n + 1 < size; p++) {
		if (line_start && strncmp(p, tag, sizeof(tag) - 1) == 0) {
			p += sizeof(tag) - 2;
			line_start = false;
			continue;
		}
		line_start = *p == '\n' || (line_start && blank(*p));
		if (blank(*p)) {
			space = n > 0;
			continue;
		}
		if (space) {
			if (n + 2 >= size)
				break;   /* no room for the word after the space */
			out[n++] = ' ';
		}
		space = false;
		out[n++] = *p;
	}
	out[n] = '\0';
}

size_t plyask_answer_len(const char *buf, size_t got)
{
	if (got && buf[got - 1] == '\n')
		got--;
	return got;
}

int plyask_start(struct plyask *a, const char *prompt)
{
	char arg[PLYASK_PROMPT_MAX + 16];
	int pfd[2];

	a->pid = 0;
	a->fd = -1;
	snprintf(arg, sizeof(arg), "--prompt=%s", prompt);
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	a->pid = fork();
	if (a->pid < 0) {
		int e = errno;

		close(pfd[0]);
		close(pfd[1]);
		a->pid = 0;
		return -e;
	}
	if (a->pid == 0) {
		const char *argv[] = { SPLASH_CLIENT, "ask-for-password", arg, NULL };
		int null = open("/dev/null", O_RDWR);
		sigset_t none;

		/* The signals as a new program expects them, not PID 1's. */
		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(null, 0);
		dup2(pfd[1], 1);
		dup2(null, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	a->fd = pfd[0];
	return 0;
}

/* Reap the client; its exit status, or -1 when a signal ended it. */
static int reap(struct plyask *a)
{
	int status = 0;
	pid_t r;

	do
		r = waitpid(a->pid, &status, 0);
	while (r < 0 && errno == EINTR);
	a->pid = 0;
	return r > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Read from fd until its end, at most size - 1 bytes kept (terminated),
 * bounded by PLYASK_END_MS. Returns the bytes kept; *ended says whether
 * the end came (the client closed it by ending). */
static size_t read_to_end(int fd, char *buf, size_t size, bool *ended)
{
	size_t n = 0;
	char drop[64];

	*ended = false;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t got;

		if (poll(&p, 1, PLYASK_END_MS) <= 0)
			break;
		got = n + 1 < size ? read(fd, buf + n, size - 1 - n) : read(fd, drop, sizeof(drop));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			*ended = got == 0;
			break;
		}
		if (n + 1 < size)
			n += (size_t)got;
	}
	explicit_bzero(drop, sizeof(drop));
	buf[n] = '\0';
	return n;
}

int plyask_read(struct plyask *a, char *buf, size_t size)
{
	bool ended;
	size_t n;

	if (a->fd < 0 || size < 1)
		return -ECANCELED;
	n = read_to_end(a->fd, buf, size, &ended);
	close(a->fd);
	a->fd = -1;
	/* A client that kept its pipe open is not waited for. */
	if (!ended && a->pid > 0)
		kill(a->pid, SIGKILL);
	if (a->pid <= 0 || reap(a) != 0 || !ended) {
		explicit_bzero(buf, size);
		return -ECANCELED;
	}
	n = plyask_answer_len(buf, n);
	buf[n] = '\0';
	return (int)n;
}

void plyask_cancel(struct plyask *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	if (a->pid > 0) {
		kill(a->pid, SIGTERM);
		reap(a);
	}
}
