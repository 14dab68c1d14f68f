/* scriptout: a child on the console, its stdout into a buffer, bounded. */
#include "bootlib/scriptout.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/evloop.h"
#include "bootlib/run.h"

/* The child's side: the console as stdin and stderr, the pipe as stdout. */
static void child_start(char *const argv[], char *const envp[], int console, int out, int errfd)
{
	if (console >= 0) {
		dup2(console, STDIN_FILENO);
		dup2(console, STDERR_FILENO);
	}
	dup2(out, STDOUT_FILENO);
	run_child_exec(argv, envp, errfd);
}

/* Read what fd has now into out (EOF: false). */
static bool take_output(int fd, struct scriptout *out)
{
	ssize_t got;

	if (out->len < out->size) {
		got = read(fd, out->buf + out->len, out->size - out->len);
	} else {
		char drop[256];

		got = read(fd, drop, sizeof(drop));
	}
	if (got < 0)
		return errno == EINTR || errno == EAGAIN;
	if (got == 0)
		return false;
	if (out->len < out->size)
		out->len += (size_t)got;
	else
		out->overflow = true;
	return true;
}

/* The pipe until its end, then the child until it ends (one that closed
 * its stdout and went on is waited for too), serving events; at the
 * deadline the child's group is killed. Returns 0 or -ETIMEDOUT. */
static int wait_both(pid_t pid, int fd, uint64_t deadline_ms, struct scriptout *out)
{
	/* A pidfd becomes readable when the child ends (Linux 5.3). */
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int r;

	do
		r = evloop_wait_input(&fd, 1, deadline_ms);
	while (r == 0 && take_output(fd, out));
	if (r == 0 && pidfd >= 0)
		r = evloop_wait_input(&pidfd, 1, deadline_ms);
	if (pidfd >= 0)
		close(pidfd);
	if (r == -ETIMEDOUT) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &out->status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return r == -ETIMEDOUT ? r : 0;
}

int scriptout_run(char *const argv[], char *const envp[], uint64_t deadline_ms,
		  struct scriptout *out)
{
	int pipefd[2], errpipe[2], console, e = 0, r;
	pid_t pid;

	out->len = 0;
	out->overflow = false;
	out->status = 0;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		r = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return r;
	}
	console = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	pid = fork();
	if (pid == 0)
		child_start(argv, envp, console, pipefd[1], errpipe[1]);
	r = pid < 0 ? -errno : 0;
	close(pipefd[1]);
	close(errpipe[1]);
	if (console >= 0)
		close(console);
	if (pid > 0 && read(errpipe[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		r = -e;
	} else if (pid > 0) {
		r = wait_both(pid, pipefd[0], deadline_ms, out);
	}
	close(errpipe[0]);
	close(pipefd[0]);
	return r;
}
