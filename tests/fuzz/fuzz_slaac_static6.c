/* Fuzz target: the address events of IPv6 autoconfiguration (net/ip6/slaac.c)
 * and of a static ip=[ADDR] (net/ip6/static6.c): rtnetlink datagrams, each a
 * length byte then its bytes, fed through a socketpair to both clients'
 * input. A client says done only for a usable address of its interface
 * (static6: the one it added). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/ip6/slaac.h"
#include "net/ip6/static6.h"

static const struct link_info lan = { .name = "lan0", .index = 3,
				      .mac = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 } };

/* One datagram to the client's socket, then its input. */
static int feed(int pair[2], const uint8_t *msg, size_t len)
{
	return send(pair[1], msg, len, 0) < 0 ? -errno : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int pair[2] = { -1, -1 };
	static struct slaac_client ra;
	static struct static6_client st;
	bool ra_on = true, st_on = true;
	size_t i = 0;

	if (pair[0] < 0 && socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) < 0)
		return 0;
	memset(&ra, 0, sizeof(ra));
	ra.nl_fd = pair[0];
	ra.icmp_fd = -1;
	ra.link = &lan;
	memset(&st, 0, sizeof(st));
	st.nl_fd = pair[0];
	st.link = &lan;
	inet_pton(AF_INET6, "2001:db8::1b4", &st.addr);
	st.prefix = 64;
	while (i < size && (ra_on || st_on)) {
		size_t len = data[i++];
		int r;

		if (len > size - i)
			len = size - i;
		if (ra_on && feed(pair, data + i, len) == 0) {
			r = slaac_client_input(&ra, 0);
			if (r == 1 && (!ra.done || ra.prefix < 0 || ra.prefix > 128))
				__builtin_trap();
			ra_on = r == 0;
		}
		if (st_on && feed(pair, data + i, len) == 0) {
			r = static6_client_input(&st);
			if (r == 1 && !st.done)
				__builtin_trap();
			st_on = r == 0;
		}
		i += len;
	}
	while (recv(pair[0], &i, sizeof(i), MSG_DONTWAIT) >= 0)
		;
	return 0;
}
