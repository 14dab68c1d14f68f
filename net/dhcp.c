/* dhcp: the client state machine of RFC 2131 section 4.4, on AF_PACKET.
 *
 * A packet socket of type SOCK_DGRAM lets the kernel add the Ethernet header
 * while the IP and UDP headers are ours, so no address is needed yet.
 * Retransmission follows RFC 2131 4.1 with a shorter start: 1 s, doubling
 * to at most 16 s, each randomised by +-0.5 s, because a boot waits for it
 * and the first OFFER normally comes in milliseconds. */
#include "net/dhcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"

#define BACKOFF_FIRST_MS 1000
#define BACKOFF_MAX_MS 16000
#define JITTER_MS 500
#define REQUESTS_MAX 4           /* REQUESTs unanswered before DISCOVER again */

struct client {
	int fd;
	const struct link_info *link;
	uint64_t rand_state;
	uint64_t start_ms;
	struct dhcp_request req;
	unsigned int attempt;
};

/* xorshift64: the jitter and xids need variety, not secrecy. Seeded from
 * getrandom without blocking (early boot may not have entropy yet), mixed
 * with the MAC and the clock so two machines booting at once differ. */
static uint32_t client_random(struct client *c)
{
	c->rand_state ^= c->rand_state << 13;
	c->rand_state ^= c->rand_state >> 7;
	c->rand_state ^= c->rand_state << 17;
	return (uint32_t)(c->rand_state >> 16);
}

static void client_seed(struct client *c)
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = 0;
	for (int i = 0; i < 6; i++)
		seed = seed * 131 + c->link->mac[i];
	seed ^= clock_now_ms() * 0x9e3779b97f4a7c15ull;
	c->rand_state = seed ? seed : 0x2545f4914f6cdd1dull;
}

static int socket_open(const struct link_info *link)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_IP),
		.sll_ifindex = link->index,
	};
	int one = 1;
	int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_IP));

	if (fd < 0)
		return -errno;
	/* Auxdata tells whether the UDP checksum is still to be computed
	 * (offloaded), so such packets are not taken for corrupt. */
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

static int client_send(struct client *c)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_IP),
		.sll_ifindex = c->link->index,
		.sll_halen = 6,
		.sll_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	uint8_t buf[DHCP_PACKET_MAX];
	uint64_t secs = (clock_now_ms() - c->start_ms) / 1000;
	int len;

	c->req.secs = (uint16_t)(secs > 0xffff ? 0xffff : secs);
	len = dhcp_packet_build(&c->req, buf, sizeof(buf));
	if (len < 0)
		return len;
	log_debug("dhcp: %s: sending %s (xid 0x%08x)", c->link->name,
		  c->req.type == DHCP_DISCOVER ? "DISCOVER" : "REQUEST", c->req.xid);
	if (sendto(c->fd, buf, (size_t)len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

static unsigned int backoff_ms(struct client *c)
{
	unsigned int base = BACKOFF_FIRST_MS << (c->attempt < 4 ? c->attempt : 4);

	if (base > BACKOFF_MAX_MS)
		base = BACKOFF_MAX_MS;
	return base - JITTER_MS + client_random(c) % (2 * JITTER_MS + 1);
}

/* One received packet, parsed; -EAGAIN for anything not for us. */
static int client_receive(struct client *c, struct dhcp_lease *lease)
{
	uint8_t buf[DHCP_PACKET_MAX + 64];
	char control[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	bool check_sum = true;
	ssize_t n = recvmsg(c->fd, &msg, MSG_DONTWAIT);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -EAGAIN : -errno;
	if (msg.msg_flags & MSG_TRUNC)
		return -EAGAIN;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_PACKET && cm->cmsg_type == PACKET_AUXDATA) {
			struct tpacket_auxdata aux;

			memcpy(&aux, CMSG_DATA(cm), sizeof(aux));
			check_sum = !(aux.tp_status & TP_STATUS_CSUMNOTREADY);
		}
	n = dhcp_packet_parse(buf, (size_t)n, check_sum, c->req.xid, c->link->mac, lease);
	/* The root-path may hold iSCSI CHAP secrets: not left on the stack. */
	explicit_bzero(buf, sizeof(buf));
	return n < 0 ? -EAGAIN : 0;
}

static void client_restart(struct client *c)
{
	memset(&c->req.requested, 0, sizeof(c->req.requested));
	memset(&c->req.server_id, 0, sizeof(c->req.server_id));
	c->req.type = DHCP_DISCOVER;
	c->req.xid = client_random(c);
	c->attempt = 0;
}

/* Move the state machine on a valid message; 1 when the lease is ours. */
static int client_handle(struct client *c, const struct dhcp_lease *lease)
{
	char addr[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &lease->addr, addr, sizeof(addr));
	if (c->req.type == DHCP_DISCOVER && lease->type == DHCP_OFFER && lease->addr.s_addr &&
	    lease->server_id.s_addr) {
		log_debug("dhcp: %s: offered %s", c->link->name, addr);
		c->req.type = DHCP_REQUEST;
		c->req.requested = lease->addr;
		c->req.server_id = lease->server_id;
		c->attempt = 0;
		return client_send(c) < 0 ? -EIO : 0;
	}
	if (c->req.type != DHCP_REQUEST || lease->server_id.s_addr != c->req.server_id.s_addr)
		return 0;
	if (lease->type == DHCP_ACK && lease->addr.s_addr)
		return 1;
	if (lease->type == DHCP_NAK) {
		log_warn("dhcp: %s: the server refused the address %s (NAK); starting over",
			 c->link->name, addr);
		client_restart(c);
		return client_send(c) < 0 ? -EIO : 0;
	}
	return 0;
}

static int client_loop(struct client *c, uint64_t deadline, struct dhcp_lease *out)
{
	uint64_t next = clock_now_ms() + backoff_ms(c);
	int r = client_send(c);

	while (r == 0) {
		uint64_t now = clock_now_ms();
		uint64_t until = next < deadline ? next : deadline;
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

		if (now >= deadline)
			return -ETIMEDOUT;
		if (now >= next) {
			if (c->req.type == DHCP_REQUEST && c->attempt + 1 >= REQUESTS_MAX)
				client_restart(c);
			else
				c->attempt++;
			next = now + backoff_ms(c);
			r = client_send(c);
			continue;
		}
		if (poll(&pfd, 1, (int)(until - now)) <= 0)
			continue;
		r = client_receive(c, out);
		if (r == -EAGAIN) {
			r = 0;
			continue;
		}
		if (r == 0)
			r = client_handle(c, out);
		if (r == 1)
			return 0;
	}
	return r;
}

int dhcp_run(const struct link_info *link, const char *hostname, unsigned int timeout_ms,
	     struct dhcp_lease *out)
{
	struct client c = { .link = link, .start_ms = clock_now_ms() };
	int r;

	c.fd = socket_open(link);
	if (c.fd < 0)
		return c.fd;
	client_seed(&c);
	memcpy(c.req.mac, link->mac, 6);
	c.req.hostname = hostname;
	client_restart(&c);
	r = client_loop(&c, c.start_ms + timeout_ms, out);
	close(c.fd);
	return r;
}
