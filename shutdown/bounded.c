/* bounded: a step in a child, waited for with a deadline. */
#include "shutdown/bounded.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/clock.h"

#define POLL_MS 20

int bounded_run(int (*fn)(void), unsigned int timeout_ms)
{
	uint64_t deadline = clock_now_ms() + timeout_ms;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(fn() & 0xff);
	/* The effects of a step are in the kernel (mounts, devices), not in
	 * the child, so polling its end is all the parent needs. */
	for (;;) {
		struct timespec pause = { 0, POLL_MS * 1000000L };
		int status;
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (clock_now_ms() >= deadline) {
			kill(pid, SIGKILL);
			return -ETIMEDOUT;
		}
		nanosleep(&pause, NULL);
	}
}
