/* hostrun: running a build-host tool with its input and output in memory
 * files (memfd), so neither side can block on a full pipe. */
#include "gen/host/hostrun.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The exit status the child uses when exec fails: the tool is missing. */
#define HOSTRUN_NOEXEC 127

static int memfd_with(const void *data, size_t len)
{
	int fd = memfd_create("lifeboat-hostrun", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (len && write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -EIO;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

static void child_exec(const char *const argv[], int in_fd, int out_fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (null < 0 || dup2(in_fd >= 0 ? in_fd : null, 0) < 0 || dup2(out_fd, 1) < 0 ||
	    dup2(null, 2) < 0)
		_exit(HOSTRUN_NOEXEC);
	execvp(argv[0], (char *const *)argv);
	_exit(HOSTRUN_NOEXEC);
}

static int wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == HOSTRUN_NOEXEC)
		return -ENOENT;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static int read_back(int fd, char **out, size_t *out_len, size_t max)
{
	struct stat st;
	char *buf;

	if (fstat(fd, &st) < 0)
		return -errno;
	if ((size_t)st.st_size > max)
		return -EFBIG;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	if (pread(fd, buf, (size_t)st.st_size, 0) != st.st_size) {
		free(buf);
		return -EIO;
	}
	buf[st.st_size] = '\0';
	*out = buf;
	*out_len = (size_t)st.st_size;
	return 0;
}

int hostrun_capture(const char *const argv[], const void *in, size_t in_len,
		    char **out, size_t *out_len, size_t max)
{
	int in_fd = in ? memfd_with(in, in_len) : -1;
	int out_fd = memfd_with(NULL, 0);
	pid_t pid;
	int r;

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
		child_exec(argv, in_fd, out_fd);
	r = wait_status(pid);
	if (r == 0)
		r = read_back(out_fd, out, out_len, max);
out:
	if (in_fd >= 0)
		close(in_fd);
	if (out_fd >= 0)
		close(out_fd);
	return r;
}
