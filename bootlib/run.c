/* run: fork/exec a tool with a pipe on stdin and one on stdout+stderr. */
#include "bootlib/run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child_exec(char *const argv[], int in, int out)
{
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	execv(argv[0], argv);
	_exit(127);
}

/* The tool's output, kept to size; the rest is read and dropped so it
 * never blocks on a full pipe. */
static void collect(int fd, char *out, size_t size)
{
	size_t n = 0;
	char drop[256];

	for (;;) {
		ssize_t r = n + 1 < size ? read(fd, out + n, size - 1 - n) : read(fd, drop, sizeof(drop));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (n + 1 < size)
			n += (size_t)r;
	}
	if (size)
		out[n] = '\0';
}

int run_tool(char *const argv[], const void *input, size_t input_len, char *out, size_t size)
{
	int in[2], res[2], status, fork_err;
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
		child_exec(argv, in[0], res[1]);
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
	collect(res[0], out, size);
	close(res[0]);
	if (pid < 0)
		return fork_err;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}
