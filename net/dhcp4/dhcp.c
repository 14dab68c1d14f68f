/* dhcp: the client state machine of RFC 2131 section 4.4, on AF_PACKET.
 *
 * A packet socket of type SOCK_DGRAM lets the kernel add the Ethernet header
 * while the IP and UDP headers are ours, so no address is needed yet.
 * Retransmission: net/dhcp4/backoff.c.
 *
 * The client is driven from outside (net/config/leaserace.c): it owns one socket
 * and one timer, so several interfaces are asked at once in one poll(). */
#include "net/dhcp4/dhcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"

#define REQUESTS_MAX 4           /* REQUESTs unanswered before DISCOVER again */

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

static int client_send(struct dhcp_client *c)
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
	len = dhcppkt_build(&c->req, buf, sizeof(buf));
	if (len < 0)
		return len;
	log_debug("dhcp: %s: sending %s (xid 0x%08x)", c->link->name,
		  c->req.type == DHCP_DISCOVER ? "DISCOVER" : "REQUEST", c->req.xid);
	if (sendto(c->fd, buf, (size_t)len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

/* One received packet, parsed; -EAGAIN for anything not for us. */
static int client_receive(struct dhcp_client *c, struct dhcp_lease *lease)
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
	n = dhcppkt_parse(buf, (size_t)n, check_sum, c->req.xid, c->link->mac, lease);
	/* The root-path may hold iSCSI CHAP secrets: not left on the stack. */
	explicit_bzero(buf, sizeof(buf));
	return n < 0 ? -EAGAIN : 0;
}

static void client_restart(struct dhcp_client *c)
{
	memset(&c->req.requested, 0, sizeof(c->req.requested));
	memset(&c->req.server_id, 0, sizeof(c->req.server_id));
	c->req.type = DHCP_DISCOVER;
	c->req.xid = backoff_random(&c->rnd);
	c->attempt = 0;
}

/* Move the state machine on a valid message; 1 when the lease is ours. */
static int client_handle(struct dhcp_client *c, const struct dhcp_lease *lease)
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

int dhcp_client_timer(struct dhcp_client *c)
{
	uint64_t now = clock_now_ms();

	if (now < c->next_ms)
		return 0;
	if (c->req.type == DHCP_REQUEST && c->attempt + 1 >= REQUESTS_MAX)
		client_restart(c);
	else
		c->attempt++;
	c->next_ms = now + backoff_ms(&c->rnd, c->attempt);
	return client_send(c);
}

int dhcp_client_input(struct dhcp_client *c)
{
	int r = client_receive(c, &c->lease);

	if (r == -EAGAIN)
		return 0;
	if (r == 0)
		r = client_handle(c, &c->lease);
	if (r == 1)
		c->done = true;
	return r;
}

int dhcp_client_start(struct dhcp_client *c, const struct link_info *link, const char *hostname)
{
	memset(c, 0, sizeof(*c));
	c->link = link;
	c->start_ms = clock_now_ms();
	c->fd = socket_open(link);
	if (c->fd < 0)
		return c->fd;
	backoff_seed(&c->rnd, link->mac);
	memcpy(c->req.mac, link->mac, 6);
	c->req.hostname = hostname;
	client_restart(c);
	c->next_ms = c->start_ms + backoff_ms(&c->rnd, c->attempt);
	return client_send(c);
}

void dhcp_client_stop(struct dhcp_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	/* The root-path may hold iSCSI CHAP secrets; a loser's lease is not used. */
	if (!c->done)
		explicit_bzero(&c->lease, sizeof(c->lease));
}
