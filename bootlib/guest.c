/* guest: a remote login's seat at a console prompt, over a unix socket. */
#include "bootlib/guest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* How long the rest of a line may take once its first byte came. */
#define GUEST_LINE_MS 1000

static bool allowed;

void guest_allow(bool on)
{
	allowed = on;
}

bool guest_allowed(void)
{
	return allowed;
}

static int socket_address(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

/* The socket's directory, root's only (a test's is its own). */
static int make_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return mkdir(dir, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

int guest_listen(const char *path)
{
	struct sockaddr_un sa;
	mode_t old;
	int fd, r;

	if (!allowed)
		return -EPERM;
	r = socket_address(path, &sa);
	if (r < 0)
		return r;
	r = make_parent(path);
	if (r < 0)
		return r;
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* 0600 from the start: no moment where another user could connect. */
	old = umask(0177);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 4) < 0 ? -errno : 0;
	umask(old);
	if (r < 0) {
		close(fd);
		unlink(path);
		return r;
	}
	return fd;
}

void guest_unlisten(int fd, const char *path)
{
	if (fd >= 0)
		close(fd);
	unlink(path);
}

int guest_accept(int listen_fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.uid != 0) {
		close(fd);
		return -EACCES;
	}
	return fd;
}

/* One byte, waiting at most GUEST_LINE_MS for it. */
static int read_byte(int fd, char *c)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t got;
	int r = poll(&pfd, 1, GUEST_LINE_MS);

	if (r < 0)
		return errno == EINTR ? -EAGAIN : -errno;
	if (r == 0)
		return -EIO;
	got = read(fd, c, 1);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? -EAGAIN : -errno;
	return got == 0 ? -EIO : 0;
}

int guest_read_line(int fd, char *buf, size_t size)
{
	size_t n = 0;
	char c;
	int r;

	if (size < 2)
		return -EINVAL;
	for (;;) {
		r = read_byte(fd, &c);
		if (r == -EAGAIN)
			continue;
		if (r < 0)
			break;
		if (c == '\n')
			break;
		/* What does not fit is dropped up to the newline. */
		if (n < size - 1)
			buf[n++] = c;
	}
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	if (r < 0) {
		explicit_bzero(buf, size);
		return r;
	}
	return (int)n;
}
