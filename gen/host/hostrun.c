/* hostrun: running a build-host tool with its input and output in memory
 * files (memfd), so neither side can block on a full pipe. */
#include "gen/host/hostrun.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/filewrite.h"

/* The exit status the child uses when exec fails: the tool is missing
 * (the shell's "command not found" too). */
#define HOSTRUN_NOEXEC 127

static int memfd_with(const void *data, size_t len)
{
	int fd = memfd_create("lifeboat-hostrun", MFD_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = file_write_fd(fd, data, len);
	if (r == 0 && lseek(fd, 0, SEEK_SET) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

static void child_exec(const char *const argv[], const struct hostrun_io *io, int in_fd,
		       int out_fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int err_fd = io->with_stderr ? out_fd : io->stderr_shown ? 2 : null;

	/* Its own process group: a bound ends what it started too. */
	if (io->timeout_ms)
		setpgid(0, 0);
	if (null < 0 || dup2(in_fd >= 0 ? in_fd : null, 0) < 0 || dup2(out_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0)
		_exit(HOSTRUN_NOEXEC);
	if (io->env)
		execvpe(argv[0], (char *const *)argv, io->env);
	else
		execvp(argv[0], (char *const *)argv);
	_exit(HOSTRUN_NOEXEC);
}

/* Wait up to timeout_ms (0: without a bound) for pid to end; when it has
 * not, end its process group. Returns 0 or -ETIMEDOUT. */
static int wait_bounded(pid_t pid, unsigned int timeout_ms)
{
	int fd, ready;
	struct pollfd p;

	if (!timeout_ms)
		return 0;
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return 0;   /* a kernel before 5.3: no bound */
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	do
		ready = poll(&p, 1, (int)timeout_ms);
	while (ready < 0 && errno == EINTR);
	close(fd);
	if (ready != 0)
		return 0;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	return -ETIMEDOUT;
}

static int wait_status(pid_t pid, unsigned int timeout_ms)
{
	int bound = wait_bounded(pid, timeout_ms);
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (bound < 0)
		return bound;
	if (!WIFEXITED(status))
		return -EINTR;
	return WEXITSTATUS(status) == HOSTRUN_NOEXEC ? -ENOENT : WEXITSTATUS(status);
}

static int read_back(int fd, char **out, size_t *out_len, size_t max)
{
	struct stat st;
	ssize_t n;
	char *buf;

	if (fstat(fd, &st) < 0)
		return -errno;
	if ((size_t)st.st_size > max)
		return -EFBIG;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	n = file_read_fd_at(fd, buf, (size_t)st.st_size, 0);
	if (n != st.st_size) {
		free(buf);
		return n < 0 ? (int)n : -EIO;
	}
	buf[n] = '\0';
	*out = buf;
	*out_len = (size_t)n;
	return 0;
}

int hostrun_run(const char *const argv[], const struct hostrun_io *io, char **out,
		size_t *out_len)
{
	int in_fd = io->in ? memfd_with(io->in, io->in_len) : -1;
	int out_fd = memfd_with(NULL, 0);
	pid_t pid;
	int r, status;

	if (in_fd < -1 || out_fd < 0) {
		r = out_fd < 0 ? out_fd : in_fd;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto out;
	}
	if (pid == 0)
		child_exec(argv, io, in_fd, out_fd);
	status = wait_status(pid, io->timeout_ms);
	r = status < 0 ? status : read_back(out_fd, out, out_len, io->max);
	if (r == 0)
		r = status;
out:
	if (in_fd >= 0)
		close(in_fd);
	if (out_fd >= 0)
		close(out_fd);
	return r;
}

int hostrun_capture(const char *const argv[], const void *in, size_t in_len,
		    char **out, size_t *out_len, size_t max)
{
	const struct hostrun_io io = { .in = in, .in_len = in_len, .max = max };
	char *text;
	size_t len;
	int r = hostrun_run(argv, &io, &text, &len);

	if (r > 0) {
		free(text);
		return -EIO;
	}
	if (r == 0) {
		*out = text;
		*out_len = len;
	}
	return r;
}
