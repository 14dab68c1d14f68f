/* Unit tests: net/ip6/dhcp6.c's state machine, driven through its input
 * function with a server's messages and the kernel's address events on
 * socketpairs, and fake system calls (no interface of the machine is
 * touched): an address that cannot be used is dropped and the client goes
 * on soliciting; one that fails DAD is declined and the client starts over. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/ip6/dhcp6.h"
#include "tests/unit/net6_fixture.h"

#define IFINDEX 3
#define SENT_MAX 16

static const struct link_info lan = { .name = "lan0", .index = IFINDEX,
				      .mac = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 } };

/* What the fakes saw and the sockets the client reads: [0] the client's
 * end, [1] the test's. */
static struct {
	struct msg6 sent[SENT_MAX];
	int n_sent;
	int n_added;
	struct in6_addr refused;      /* add_address fails for this one */
	int nl[2], udp[2];
} fx;

static int fake_udp_open(const struct link_info *link)
{
	(void)link;
	return fx.udp[0];
}

static int fake_send(int fd, const void *buf, size_t len, const struct sockaddr_in6 *to)
{
	(void)fd;
	(void)to;
	if (fx.n_sent < SENT_MAX && len <= sizeof(fx.sent[0].b)) {
		memcpy(fx.sent[fx.n_sent].b, buf, len);
		fx.sent[fx.n_sent++].len = len;
	}
	return 0;
}

/* The kernel's answers: loopback and multicast refused, and the one the
 * test names. */
static int fake_add_address(int index, const struct in6_addr *addr, int prefix)
{
	(void)index;
	(void)prefix;
	if (IN6_IS_ADDR_LOOPBACK(addr) || IN6_IS_ADDR_MULTICAST(addr))
		return -EADDRNOTAVAIL;
	if (memcmp(addr, &fx.refused, sizeof(*addr)) == 0)
		return -EINVAL;
	fx.n_added++;
	return 0;
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

static int setup(void **state)
{
	(void)state;
	memset(&fx, 0, sizeof(fx));
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fx.nl) < 0 ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fx.udp) < 0)
		return -1;
	return 0;
}

/* The client's ends are closed by dhcp6_client_stop (client_stop). */
static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 2; i++) {
		if (fx.nl[i] >= 0)
			close(fx.nl[i]);
		if (fx.udp[i] >= 0)
			close(fx.udp[i]);
	}
	return 0;
}

static void client_stop(struct dhcp6_client *c)
{
	dhcp6_client_stop(c);
	fx.nl[0] = fx.udp[0] = -1;
}

static uint8_t last_sent_type(void)
{
	return fx.n_sent ? fx.sent[fx.n_sent - 1].b[0] : 0;
}

/* The kernel says: addr on the interface, with flags, of scope. */
static int kernel_says(struct dhcp6_client *c, const char *addr, uint32_t flags, uint8_t scope)
{
	uint8_t b[256];
	size_t n = newaddr_make_addr(b, IFINDEX, (uint8_t)flags, flags, scope, addr);

	assert_int_equal(send(fx.nl[1], b, n, 0), (ssize_t)n);
	return dhcp6_client_input(c, 0);
}

/* A server answers the client's last message, offering addr. */
static int server_says(struct dhcp6_client *c, uint8_t type, const char *addr)
{
	struct msg6 m;

	msg6_make_addr(&m, type, c->req.xid, 0, addr);
	assert_int_equal(send(fx.udp[1], m.b, m.len, 0), (ssize_t)m.len);
	return dhcp6_client_input(c, 1);
}

/* The client, soliciting once its link-local address is usable. */
static void client_up(struct dhcp6_client *c)
{
	dhcp6_client_init(c, &lan, &fake_io);
	c->nl_fd = fx.nl[0];
	assert_int_equal(kernel_says(c, "fe80::5054:ff:fe00:1", 0, RT_SCOPE_LINK), 0);
	assert_int_equal(c->state, DHCP6_SOLICITING);
	assert_int_equal(last_sent_type(), DHCP6_SOLICIT);
}

/* The whole exchange for addr, up to DAD running on it. */
static void lease_to_dad(struct dhcp6_client *c, const char *addr)
{
	assert_int_equal(server_says(c, DHCP6_ADVERTISE, addr), 0);
	assert_int_equal(last_sent_type(), DHCP6_REQUEST);
	assert_int_equal(server_says(c, DHCP6_REPLY, addr), 0);
	assert_int_equal(c->state, DHCP6_WAIT_DAD);
}

/* The audit's N4: ::1 offered and confirmed by anyone on the link ended
 * DHCPv6 for the boot (the kernel's refusal came back as the client's
 * error, and the lease race dropped it). Now the offer is not taken, and
 * the real server's answer that follows is. */
static void dhcp6_unusable_offer_ignored(void **state)
{
	struct dhcp6_client c;
	int sent;

	(void)state;
	client_up(&c);
	sent = fx.n_sent;
	assert_int_equal(server_says(&c, DHCP6_ADVERTISE, "::1"), 0);
	assert_int_equal(server_says(&c, DHCP6_REPLY, "::1"), 0);
	assert_int_equal(server_says(&c, DHCP6_ADVERTISE, "ff02::1"), 0);
	assert_int_equal(c.state, DHCP6_SOLICITING);
	assert_int_equal(fx.n_sent, sent);            /* no REQUEST for them */
	lease_to_dad(&c, "2001:db8::1b4");
	assert_int_equal(kernel_says(&c, "2001:db8::1b4", 0, RT_SCOPE_UNIVERSE), 1);
	assert_int_equal(fx.n_added, 1);
	client_stop(&c);
}

/* An address that looks right but that the kernel refuses: the client
 * solicits again instead of stopping. */
static void dhcp6_refused_address_solicits_again(void **state)
{
	struct dhcp6_client c;

	(void)state;
	client_up(&c);
	inet_pton(AF_INET6, "2001:db8::bad", &fx.refused);
	assert_int_equal(server_says(&c, DHCP6_ADVERTISE, "2001:db8::bad"), 0);
	assert_int_equal(server_says(&c, DHCP6_REPLY, "2001:db8::bad"), 0);
	assert_int_equal(c.state, DHCP6_SOLICITING);
	assert_int_equal(last_sent_type(), DHCP6_SOLICIT);
	lease_to_dad(&c, "2001:db8::1b4");
	assert_int_equal(kernel_says(&c, "2001:db8::1b4", 0, RT_SCOPE_UNIVERSE), 1);
	client_stop(&c);
}

/* DAD fails: a DECLINE naming the server and the address, then a SOLICIT;
 * the next address the server gives is taken. */
static void dhcp6_dad_failure_declined(void **state)
{
	struct dhcp6_client c;
	struct in6_addr bad;
	const struct msg6 *decline;

	(void)state;
	client_up(&c);
	lease_to_dad(&c, "2001:db8::1b4");
	assert_int_equal(kernel_says(&c, "2001:db8::1b4", IFA_F_DADFAILED, RT_SCOPE_UNIVERSE), 0);
	assert_true(fx.n_sent >= 2);
	decline = &fx.sent[fx.n_sent - 2];
	assert_int_equal(decline->b[0], DHCP6_DECLINE);
	assert_non_null(memmem(decline->b, decline->len, server_duid, sizeof(server_duid)));
	inet_pton(AF_INET6, "2001:db8::1b4", &bad);
	assert_non_null(memmem(decline->b, decline->len, &bad, sizeof(bad)));
	assert_int_equal(last_sent_type(), DHCP6_SOLICIT);
	assert_int_equal(c.state, DHCP6_SOLICITING);
	lease_to_dad(&c, "2001:db8::1b5");
	assert_int_equal(kernel_says(&c, "2001:db8::1b5", 0, RT_SCOPE_UNIVERSE), 1);
	client_stop(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(dhcp6_unusable_offer_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(dhcp6_refused_address_solicits_again, setup,
						teardown),
		cmocka_unit_test_setup_teardown(dhcp6_dad_failure_declined, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
