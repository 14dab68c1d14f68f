/* shim_uevent: the kernel's uevent socket, fed by the harness instead.
 *
 * A NETLINK_KOBJECT_UEVENT socket becomes an AF_UNIX datagram socket bound
 * to FAKEROOT/uevent.sock, where the harness sends kernel-format messages
 * ("add@DEVPATH\0ACTION=add\0..."). What it receives is said to come from
 * the kernel (netlink sender 0), as only the kernel's would be. */
#include "tests/fakeroot/shim.h"

#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define FD_MAX 1024

static unsigned char is_uevent[FD_MAX];

static int tracked(int fd)
{
	return fd >= 0 && fd < FD_MAX && is_uevent[fd];
}

int socket(int domain, int type, int protocol)
{
	static int (*next)(int, int, int);
	int fd;

	if (!next)
		next = (int (*)(int, int, int))shim_next("socket");
	if (domain != AF_NETLINK || protocol != NETLINK_KOBJECT_UEVENT || !shim_root())
		return next(domain, type, protocol);
	fd = next(AF_UNIX, type, 0);
	if (fd >= 0 && fd < FD_MAX)
		is_uevent[fd] = 1;
	return fd;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static int (*next)(int, const struct sockaddr *, socklen_t);
	struct sockaddr_un un = { .sun_family = AF_UNIX };

	if (!next)
		next = (int (*)(int, const struct sockaddr *, socklen_t))shim_next("bind");
	if (!tracked(fd))
		return next(fd, addr, len);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/uevent.sock", shim_root());
	unlink(un.sun_path);
	return next(fd, (struct sockaddr *)&un, sizeof(un));
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	static ssize_t (*next)(int, struct msghdr *, int);
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK, .nl_pid = 0, .nl_groups = 1 };
	void *name = msg->msg_name;
	socklen_t size = msg->msg_namelen;
	ssize_t n;

	if (!next)
		next = (ssize_t (*)(int, struct msghdr *, int))shim_next("recvmsg");
	if (!tracked(fd))
		return next(fd, msg, flags);
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	n = next(fd, msg, flags);
	msg->msg_name = name;
	msg->msg_namelen = size;
	if (n >= 0 && name && size >= sizeof(kernel)) {
		memcpy(name, &kernel, sizeof(kernel));
		msg->msg_namelen = sizeof(kernel);
	}
	return n;
}

int close(int fd)
{
	static int (*next)(int);

	if (!next)
		next = (int (*)(int))shim_next("close");
	if (fd >= 0 && fd < FD_MAX)
		is_uevent[fd] = 0;
	return next(fd);
}
