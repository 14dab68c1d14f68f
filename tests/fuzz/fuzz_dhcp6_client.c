/* Fuzz target: net/ip6/dhcp6.c's state machine. The input is a script of the
 * kernel's address events, a server's messages and timer ticks, fed to
 * dhcp6_client_input and dhcp6_client_timer through socketpairs, with fake
 * system calls (no interface is touched). Each record: a kind byte (0: an
 * rtnetlink datagram; 1: a UDP datagram; 2: the same with the client's
 * current xid written over bytes 1-3, so that the fuzzer reaches REQUEST
 * and DAD; 3: a timer tick), a length byte, that many bytes. The kernel is
 * never asked to add an address a host cannot have (audit N4). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/ip6/dhcp6.h"

static int pair_nl[2] = { -1, -1 }, pair_udp[2] = { -1, -1 };

static int fake_udp_open(const struct link_info *link)
{
	(void)link;
	return pair_udp[0];
}

static int fake_send(int fd, const void *buf, size_t len, const struct sockaddr_in6 *to)
{
	(void)fd;
	(void)buf;
	(void)len;
	(void)to;
	return 0;
}

static int fake_add_address(int index, const struct in6_addr *addr, int prefix)
{
	(void)index;
	(void)prefix;
	if (IN6_IS_ADDR_UNSPECIFIED(addr) || IN6_IS_ADDR_LOOPBACK(addr) ||
	    IN6_IS_ADDR_MULTICAST(addr) || IN6_IS_ADDR_LINKLOCAL(addr))
		__builtin_trap();
	/* The kernel refuses some: the client must go on. */
	return addr->s6_addr[15] == 0xee ? -EINVAL : 0;
}

static int fake_addr_dump(int fd)
{
	(void)fd;
	return 0;
}

static const struct dhcp6_io fake_io = {
	.udp_open = fake_udp_open,
	.send = fake_send,
	.add_address = fake_add_address,
	.addr_dump = fake_addr_dump,
};

static const struct link_info lan = { .name = "lan0", .index = 3,
				      .mac = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 } };

static void drain(int fd)
{
	uint8_t b[64];

	while (recv(fd, b, sizeof(b), MSG_DONTWAIT) >= 0)
		;
}

/* One record; false when the client's answer ends the script. */
static bool record_run(struct dhcp6_client *c, uint8_t kind, uint8_t *msg, size_t len)
{
	int r = 0;

	if (kind == 3) {
		r = dhcp6_client_timer(c);
	} else if (kind == 0) {
		if (send(pair_nl[1], msg, len, 0) < 0)
			return true;
		r = dhcp6_client_input(c, 0);
	} else if (c->udp_fd >= 0) {
		if (kind == 2 && len >= 4) {
			msg[1] = (uint8_t)(c->req.xid >> 16);
			msg[2] = (uint8_t)(c->req.xid >> 8);
			msg[3] = (uint8_t)c->req.xid;
		}
		if (send(pair_udp[1], msg, len, 0) < 0)
			return true;
		r = dhcp6_client_input(c, 1);
	}
	if (r == 1 && (c->state != DHCP6_WAIT_DAD || !c->done))
		__builtin_trap();
	return r == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dhcp6_client c;
	uint8_t msg[256];
	size_t i = 0;

	if (pair_nl[0] < 0 &&
	    (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair_nl) < 0 ||
	     socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair_udp) < 0))
		return 0;
	dhcp6_client_init(&c, &lan, &fake_io);
	c.nl_fd = pair_nl[0];
	while (i + 2 <= size) {
		uint8_t kind = data[i] & 3;
		size_t len = data[i + 1];

		i += 2;
		if (len > size - i)
			len = size - i;
		memcpy(msg, data + i, len);
		i += len;
		if (!record_run(&c, kind, msg, len))
			break;
	}
	drain(pair_nl[0]);
	drain(pair_udp[0]);
	return 0;
}
