/* Unit tests: a netlink socket bound to its groups (bootlib/nlsock.c):
 * closed on exec, non-blocking when asked, and a protocol the kernel does
 * not have refused with nothing left open. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/nlsock.h"

static void bound_with_flags(void **state)
{
	struct sockaddr_nl addr;
	socklen_t len = sizeof(addr);
	int fd = nlsock_open(SOCK_RAW | SOCK_NONBLOCK, NETLINK_ROUTE, RTMGRP_LINK);
	char buf[64];

	(void)state;
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&addr, &len), 0);
	assert_int_equal(addr.nl_groups, RTMGRP_LINK);
	/* Nothing sent to it: a read does not wait. */
	assert_int_equal(recv(fd, buf, sizeof(buf), 0), -1);
	assert_int_equal(errno, EAGAIN);
	close(fd);
	fd = nlsock_open(SOCK_RAW, NETLINK_ROUTE, 0);
	assert_true(fd >= 0);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
}

static void unknown_protocol_refused(void **state)
{
	int before = dup(0), after;

	(void)state;
	assert_true(before >= 0);
	close(before);
	assert_true(nlsock_open(SOCK_RAW, 31, 0) < 0);
	after = dup(0);
	assert_int_equal(after, before);
	close(after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bound_with_flags),
		cmocka_unit_test(unknown_protocol_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
