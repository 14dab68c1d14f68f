/* hosttool: run a tool of the build host and collect what it prints. */
#include "gen/host/hosttool.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void collect(int fd, char *out, size_t size)
{
	size_t n = 0;
	ssize_t got;
	char chunk[512];

	/* Read to the end even when out is full, so the tool never blocks. */
	while ((got = read(fd, chunk, sizeof(chunk))) != 0) {
		size_t keep;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		keep = n + 1 < size ? size - 1 - n : 0;
		if (keep > (size_t)got)
			keep = (size_t)got;
		memcpy(out + n, chunk, keep);
		n += keep;
	}
	if (size)
		out[n] = '\0';
}

int hosttool_run(char *const argv[], char *out, size_t size)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, r;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return -r;
	}
	collect(pipefd[0], out, size);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}
