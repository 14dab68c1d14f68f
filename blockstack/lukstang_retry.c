/* lukstang_retry: the clevis bindings tried again behind the passphrase prompt. */
#include "blockstack/lukstang_retry.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blockstack/lukstang.h"
#include "bootlib/patience.h"
#include "bootlib/run.h"

static volatile sig_atomic_t retry_cancelled;

static void on_cancel(int sig)
{
	(void)sig;
	retry_cancelled = 1;
}

/* The child: try until a try succeeds (its output to fd, exit 0), the
 * deadline or a cancel (exit 1). A cancel lets the try under way end:
 * lifeboat-clevis ends at once unless the container is opening, which
 * it finishes (clevis/clevis_main.c), and then that try counts. */
static void __attribute__((noreturn)) retry_loop(char *const argv[], uint64_t deadline_ms, int fd)
{
	static char out[LUKSTANG_OUT_MAX];
	struct sigaction cancel = { .sa_handler = on_cancel };   /* no SA_RESTART: ends a pause */
	struct patience p;
	sigset_t none;

	/* Signals as a new program expects them: the init's handlers and
	 * mask are its own (waitpid must see lifeboat-clevis end). */
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigaction(SIGTERM, &cancel, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	patience_start(&p, "a clevis binding", deadline_ms);
	p.said = true;   /* the prompt on the console says what waits */
	while (!retry_cancelled && patience_wait(&p, "")) {
		if (run_tool(argv, NULL, 0, out, sizeof(out)) != 0)
			continue;
		_exit(write(fd, out, strlen(out)) < 0 ? 1 : 0);
	}
	_exit(1);
}

int lukstang_retry_start(struct lukstang_retry *t, char *const argv[], uint64_t deadline_ms)
{
	int pipefd[2], e;
	pid_t pid;

	t->pid = 0;
	t->fd = -1;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		close(pipefd[0]);
		retry_loop(argv, deadline_ms, pipefd[1]);
	}
	e = -errno;
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return e;
	}
	/* Here too: a kill right after the fork must reach the group. */
	setpgid(pid, pid);
	t->pid = pid;
	t->fd = pipefd[0];
	return 0;
}

/* What the child wrote: once it ended, its one write (LUKSTANG_OUT_MAX,
 * under PIPE_BUF: it never waits and comes whole) is in the pipe. */
static void read_report(int fd, char *out, size_t size)
{
	ssize_t got;

	do
		got = read(fd, out, size - 1);
	while (got < 0 && errno == EINTR);
	out[got > 0 ? (size_t)got : 0] = '\0';
}

int lukstang_retry_finish(struct lukstang_retry *t, char *out, size_t size)
{
	int status = 0;

	if (t->pid > 0)
		while (waitpid(t->pid, &status, 0) < 0 && errno == EINTR)
			;
	out[0] = '\0';
	if (t->fd >= 0) {
		read_report(t->fd, out, size);
		close(t->fd);
	}
	t->fd = -1;
	t->pid = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ETIMEDOUT;
}

int lukstang_retry_cancel(struct lukstang_retry *t, char *out, size_t size)
{
	/* SIGTERM, not SIGKILL: a cryptsetup activating the container when
	 * the answer came is let finish (a half-made device-mapper table would
	 * make the typed passphrase's open fail), and then counts as the
	 * binding's opening. */
	if (t->pid > 0)
		kill(-t->pid, SIGTERM);
	return lukstang_retry_finish(t, out, size) == 0 ? 0 : -ECANCELED;
}

/* Every console hears which binding opened c (the one that typed nothing
 * learns why its prompt went away); the log says it as luks_tang_open
 * does. */
static int opened_by_binding(struct console_set *cons, const struct luks_container *c,
			     const char *out, char *buf, size_t size, bool *opened)
{
	char binding[400];

	explicit_bzero(buf, size);
	lukstang_binding(out, binding, sizeof(binding));
	console_printf_all(cons, "\nlifeboat: /dev/%s (UUID=%s) is open: %s answered while the "
			   "passphrase was asked; the boot goes on.\n", c->devname, c->uuid,
			   binding);
	lukstang_said_opened(c, out);
	*opened = true;
	return 0;
}

int lukstang_retry_answer(struct console_set *cons, const struct luks_container *c, char *buf,
			  size_t size, bool *opened)
{
	static char out[LUKSTANG_OUT_MAX];
	struct lukstang_argv a;
	struct lukstang_retry t;
	int r;

	*opened = false;
	lukstang_argv(c, &a);
	if (lukstang_retry_start(&t, (char *const *)a.argv, cons->deadline_ms) < 0)
		return console_read_answer(cons, buf, size, true, NULL);
	cons->wake_fd = t.fd;
	r = console_read_answer(cons, buf, size, true, NULL);
	cons->wake_fd = -1;
	if (r == -ECANCELED) {
		if (lukstang_retry_finish(&t, out, sizeof(out)) == 0)
			return opened_by_binding(cons, c, out, buf, size, opened);
		/* The tries ended at the deadline: the prompt goes on alone. */
		return console_read_answer(cons, buf, size, true, NULL);
	}
	/* A binding may have opened it just before the answer came. */
	if (lukstang_retry_cancel(&t, out, sizeof(out)) == 0)
		return opened_by_binding(cons, c, out, buf, size, opened);
	return r;
}
