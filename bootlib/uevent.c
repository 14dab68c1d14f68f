/* uevent: kernel device events from the netlink socket, parsed. */
#include "bootlib/uevent.h"

#include <errno.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/nlsock.h"

int uevent_open(void)
{
	/* Module loading bursts many events at once; a large buffer keeps the
	 * kernel from dropping them while the init is busy in finit_module. */
	int size = 4 << 20;
	int fd = nlsock_open(SOCK_DGRAM | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT, 1);

	if (fd < 0)
		return fd;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return fd;
}

struct uevent_key {
	const char *prefix;
	size_t offset;
};

static const struct uevent_key keys[] = {
	{ "ACTION=",    offsetof(struct uevent, action) },
	{ "DEVPATH=",   offsetof(struct uevent, devpath) },
	{ "SUBSYSTEM=", offsetof(struct uevent, subsystem) },
	{ "DEVNAME=",   offsetof(struct uevent, devname) },
	{ "DEVTYPE=",   offsetof(struct uevent, devtype) },
	{ "MODALIAS=",  offsetof(struct uevent, modalias) },
};

static void uevent_set(struct uevent *ev, const char *field)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].prefix);

		if (strncmp(field, keys[i].prefix, n) == 0) {
			*(const char **)((char *)ev + keys[i].offset) = field + n;
			return;
		}
	}
}

int uevent_parse(const char *buf, size_t len, struct uevent *ev)
{
	const char *end = buf + len;
	const char *p;

	memset(ev, 0, sizeof(*ev));
	/* Every field must be NUL-terminated inside the buffer. */
	if (len == 0 || buf[len - 1] != '\0')
		return -EINVAL;
	if (!memchr(buf, '@', strlen(buf)))
		return -EINVAL;
	for (p = buf + strlen(buf) + 1; p < end; p += strlen(p) + 1)
		uevent_set(ev, p);
	if (!ev->action || !ev->devpath)
		return -EINVAL;
	return 0;
}

int uevent_receive(int fd, char *buf, size_t size, struct uevent *ev)
{
	struct sockaddr_nl from;
	struct iovec iov = { buf, size - 1 };
	struct msghdr msg = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n = recvmsg(fd, &msg, 0);

	if (n < 0)
		return -errno;
	if (from.nl_pid != 0)
		return -EPERM;
	buf[n] = '\0';
	return uevent_parse(buf, (size_t)n + (n == 0 || buf[n - 1] != '\0'), ev);
}
