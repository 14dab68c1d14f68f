/* run: fork/exec a tool with a pipe on stdin and one on stdout+stderr. */
#include "bootlib/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/clock.h"

static void child_exec(char *const argv[], char *const env[], int in, int out)
{
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	for (; env && *env; env++)
		putenv(*env);
	execv(argv[0], argv);
	_exit(127);
}

void run_child_exec(char *const argv[], char *const envp[], int errfd)
{
	sigset_t none;
	int e;

	setpgid(0, 0);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(argv[0], argv, envp);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		(void)0;
	_exit(127);
}

/* The tool's output, kept to size; the rest is read and dropped so it
 * never blocks on a full pipe. With timeout_ms >= 0, gives up when that
 * passes without the pipe's end: returns -ETIMEDOUT, else 0. */
static int collect(int fd, char *out, size_t size, int timeout_ms)
{
	long long deadline = (long long)clock_now_ms() + timeout_ms;
	size_t n = 0;
	char drop[256];
	int r = 0;

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		long long left = deadline - (long long)clock_now_ms();
		ssize_t got;

		if (timeout_ms >= 0 && (left <= 0 || poll(&pfd, 1, (int)left) == 0)) {
			r = -ETIMEDOUT;
			break;
		}
		got = n + 1 < size ? read(fd, out + n, size - 1 - n) : read(fd, drop, sizeof(drop));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (n + 1 < size)
			n += (size_t)got;
	}
	if (size)
		out[n] = '\0';
	return r;
}

int run_tool(char *const argv[], const void *input, size_t input_len, char *out, size_t size)
{
	return run_tool_bounded(argv, NULL, input, input_len, out, size, -1);
}

int run_tool_bounded(char *const argv[], char *const env[], const void *input, size_t input_len,
		     char *out, size_t size, int timeout_ms)
{
	int in[2], res[2], status, fork_err, timed_out;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(res, O_CLOEXEC) < 0) {
		int e = -errno;

		close(in[0]);
		close(in[1]);
		return e;
	}
	pid = fork();
	fork_err = -errno;
	if (pid == 0)
		child_exec(argv, env, in[0], res[1]);
	close(in[0]);
	close(res[1]);
	/* A passphrase is small: it fits the pipe, so this write cannot block
	 * on a tool that has not started reading yet. */
	if (pid > 0 && input_len) {
		signal(SIGPIPE, SIG_IGN);
		if (write(in[1], input, input_len) < 0)
			(void)0;   /* the tool reports what it missed */
	}
	close(in[1]);
	timed_out = collect(res[0], out, size, timeout_ms);
	close(res[0]);
	if (pid < 0)
		return fork_err;
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (timed_out)
		return timed_out;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}
