/* nlsock: a netlink socket bound to the kernel's multicast groups. */
#include "bootlib/nlsock.h"

#include <errno.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

int nlsock_open(int type, int protocol, unsigned int groups)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, type | SOCK_CLOEXEC, protocol);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}
