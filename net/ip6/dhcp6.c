/* dhcp6: SOLICIT, ADVERTISE, REQUEST, REPLY (RFC 8415 18.2), then DAD on the address.
 *
 * A client sends from its link-local address, which the kernel will not
 * use while DAD runs on it: the client waits for it by rtnetlink events
 * before its first SOLICIT. The first ADVERTISE that offers an address is
 * taken (RFC 8415 waits a second for better ones; one server is the rule at
 * boot). The address is added as a /128, as DHCPv6 says nothing of the
 * link's prefix: the on-link prefix and the default route come from the
 * router advertisements, which the kernel follows (accept_ra).
 *
 * Anyone on the link can answer a SOLICIT (its xid and our DUID are in the
 * multicast), so nothing a message says may end the client: an address
 * that is not a unicast one, or that the kernel refuses, is dropped and
 * the client goes on; one that fails DAD is declined and the client
 * solicits again. Only rd.net.timeout.dhcp ends the asking. */
#include "net/ip6/dhcp6.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "net/ip6/addrwatch.h"

#define ADDR_EVENTS 16
#define REQUESTS_MAX 10          /* RFC 8415 REQ_MAX_RC */
#define NEVER UINT64_MAX

static int system_udp_open(const struct link_info *link)
{
	struct sockaddr_in6 me = { .sin6_family = AF_INET6, .sin6_port = htons(DHCP6_PORT_CLIENT) };
	int one = 1;
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_UDP);

	if (fd < 0)
		return -errno;
	/* Several interfaces ask at once, each bound to port 546 on its own device. */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, link->name, strlen(link->name)) < 0 ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

static int system_send(int fd, const void *buf, size_t len, const struct sockaddr_in6 *to)
{
	return sendto(fd, buf, len, 0, (const struct sockaddr *)to, sizeof(*to)) < 0 ? -errno : 0;
}

const struct dhcp6_io dhcp6_io_system = {
	.udp_open = system_udp_open,
	.send = system_send,
	.add_address = link_add_address6,
	.addr_dump = addrwatch_dump,
};

static const char *const msg_names[] = {
	[DHCP6_SOLICIT] = "SOLICIT", [DHCP6_REQUEST] = "REQUEST", [DHCP6_DECLINE] = "DECLINE",
};

static int client_send(struct dhcp6_client *c)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6, .sin6_port = htons(DHCP6_PORT_SERVER),
				   .sin6_scope_id = (uint32_t)c->link->index };
	uint8_t buf[512];
	uint64_t cs = (clock_now_ms() - c->start_ms) / 10;
	int len;

	inet_pton(AF_INET6, "ff02::1:2", &to.sin6_addr);  /* all DHCP servers and relays */
	c->req.elapsed_cs = (uint16_t)(cs > 0xffff ? 0xffff : cs);
	len = dhcp6pkt_build(&c->req, buf, sizeof(buf));
	if (len < 0)
		return len;
	c->next_ms = clock_now_ms() + backoff_ms(&c->rnd, c->attempt);
	log_debug("dhcp6: %s: sending %s (xid 0x%06x)", c->link->name, msg_names[c->req.type],
		  c->req.xid);
	return c->io->send(c->udp_fd, buf, (size_t)len, &to);
}

static int solicit(struct dhcp6_client *c)
{
	c->state = DHCP6_SOLICITING;
	c->req.type = DHCP6_SOLICIT;
	c->req.xid = backoff_random(&c->rnd) & 0xffffff;
	c->req.server_duid = NULL;
	c->req.server_duid_len = 0;
	c->req.addr = NULL;
	c->attempt = 0;
	return client_send(c);
}

void dhcp6_client_init(struct dhcp6_client *c, const struct link_info *link,
		       const struct dhcp6_io *io)
{
	memset(c, 0, sizeof(*c));
	c->nl_fd = c->udp_fd = -1;
	c->io = io;
	c->link = link;
	c->start_ms = clock_now_ms();
	c->next_ms = NEVER;
	backoff_seed(&c->rnd, link->mac);
	memcpy(c->req.mac, link->mac, 6);
	c->req.iaid = (uint32_t)link->mac[2] << 24 | (uint32_t)link->mac[3] << 16 |
		      (uint32_t)link->mac[4] << 8 | link->mac[5];
}

/* A REQUEST or DECLINE of about's address to the server that gave it,
 * with a new xid. */
static int send_to_server(struct dhcp6_client *c, enum dhcp6_msg type,
			  const struct dhcp6_lease *about)
{
	c->req.type = type;
	c->req.xid = backoff_random(&c->rnd) & 0xffffff;
	c->req.server_duid = about->server_duid;
	c->req.server_duid_len = about->server_duid_len;
	c->req.addr = &about->addr;
	c->attempt = 0;
	return client_send(c);
}

int dhcp6_client_start(struct dhcp6_client *c, const struct link_info *link)
{
	int r;

	dhcp6_client_init(c, link, &dhcp6_io_system);
	r = link_ipv6_setting(link->name, "accept_ra", "1");
	if (r < 0)
		return r;
	c->nl_fd = addrwatch_open();
	return c->nl_fd < 0 ? c->nl_fd : 0;
}

/* The link-local address is usable: the conversation can start. */
static int link_local_ready(struct dhcp6_client *c)
{
	c->udp_fd = c->io->udp_open(c->link);
	if (c->udp_fd < 0)
		return c->udp_fd;
	return solicit(c);
}

/* RFC 8415 18.2.8: the address is declined, so that the server gives it to
 * no one else, then the client starts over. The DECLINE is sent once: its
 * REPLY would change nothing here, and a lost one only leaves the address
 * with the server until its lease ends. */
static int addr_dad_failed(struct dhcp6_client *c)
{
	char a[INET6_ADDRSTRLEN];
	int r;

	inet_ntop(AF_INET6, &c->lease.addr, a, sizeof(a));
	log_warn("dhcp6: %s: the address %s given by the server is used by another machine "
		 "on the link (DAD failed); declining it and soliciting again", c->link->name, a);
	r = send_to_server(c, DHCP6_DECLINE, &c->lease);
	if (r < 0)
		log_warn("dhcp6: %s: sending the DECLINE failed: %s", c->link->name, strerror(-r));
	return solicit(c);
}

static int addr_receive(struct dhcp6_client *c)
{
	struct addr_event ev[ADDR_EVENTS];
	int n = addrwatch_read(c->nl_fd, ev, ADDR_EVENTS);

	for (int i = 0; i < n; i++) {
		if (c->state == DHCP6_WAIT_LINK_LOCAL &&
		    addrwatch_event_usable(&ev[i], c->link->index, RT_SCOPE_LINK))
			return link_local_ready(c);
		if (c->state != DHCP6_WAIT_DAD || ev[i].index != c->link->index ||
		    memcmp(&ev[i].addr, &c->lease.addr, 16) != 0)
			continue;
		if (ev[i].flags & IFA_F_DADFAILED)
			return addr_dad_failed(c);
		if (addrwatch_event_usable(&ev[i], c->link->index, RT_SCOPE_UNIVERSE)) {
			c->done = true;
			return 1;
		}
	}
	return n < 0 ? n : 0;
}

/* A REPLY with an address: add it, and wait for its DAD. An address the
 * kernel refuses is the server's mistake (or another's answer): dropped,
 * and the client solicits again. */
static int lease_take(struct dhcp6_client *c)
{
	int r = c->io->add_address(c->link->index, &c->lease.addr, 128);

	if (r < 0) {
		char a[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, &c->lease.addr, a, sizeof(a));
		log_warn("dhcp6: %s: the address %s given by the server could not be added (%s); "
			 "soliciting again", c->link->name, a, strerror(-r));
		return solicit(c);
	}
	c->state = DHCP6_WAIT_DAD;
	c->next_ms = NEVER;
	/* The address may have been added and DAD-checked before: ask. */
	return c->io->addr_dump(c->nl_fd);
}

/* An address a host may have for itself on a link: unicast, not ::,
 * loopback, link-local (the kernel's own), v4-mapped or multicast. */
static bool addr_assignable(const struct in6_addr *a)
{
	return !IN6_IS_ADDR_UNSPECIFIED(a) && !IN6_IS_ADDR_LOOPBACK(a) &&
	       !IN6_IS_ADDR_MULTICAST(a) && !IN6_IS_ADDR_LINKLOCAL(a) &&
	       !IN6_IS_ADDR_V4MAPPED(a) && !IN6_IS_ADDR_V4COMPAT(a);
}

static int message_handle(struct dhcp6_client *c, const struct dhcp6_lease *m)
{
	bool usable = m->has_addr && m->status == DHCP6_STATUS_SUCCESS &&
		      addr_assignable(&m->addr);

	if (c->state == DHCP6_SOLICITING && m->type == DHCP6_ADVERTISE && usable) {
		c->offer = *m;
		c->state = DHCP6_REQUESTING;
		return send_to_server(c, DHCP6_REQUEST, &c->offer);
	}
	if (c->state != DHCP6_REQUESTING || m->type != DHCP6_REPLY)
		return 0;
	if (!usable) {
		log_warn("dhcp6: %s: the server's REPLY gives no address to use (status %u); "
			 "soliciting again", c->link->name, m->status);
		return solicit(c);
	}
	c->lease = *m;
	return lease_take(c);
}

static int udp_receive(struct dhcp6_client *c)
{
	int r;
	uint8_t buf[1500];
	struct sockaddr_in6 from = { .sin6_family = AF_INET6 };
	socklen_t fl = sizeof(from);
	struct dhcp6_lease m;
	ssize_t n = recvfrom(c->udp_fd, buf, sizeof(buf), MSG_TRUNC, (struct sockaddr *)&from, &fl);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	n = (size_t)n > sizeof(buf) ? -1 : dhcp6pkt_parse(buf, (size_t)n, c->req.xid, c->link->mac, &m);
	/* The boot file URL may hold iSCSI CHAP secrets: not left on the stack. */
	explicit_bzero(buf, sizeof(buf));
	if (n < 0)
		return 0;
	if (m.type == DHCP6_REPLY)
		c->server = from.sin6_addr;
	r = message_handle(c, &m);
	explicit_bzero(&m, sizeof(m));
	return r;
}

int dhcp6_client_input(struct dhcp6_client *c, int which)
{
	return which == 1 ? udp_receive(c) : addr_receive(c);
}

int dhcp6_client_timer(struct dhcp6_client *c)
{
	if (c->state == DHCP6_WAIT_LINK_LOCAL || c->state == DHCP6_WAIT_DAD) {
		c->next_ms = NEVER;
		return 0;
	}
	if (c->state == DHCP6_REQUESTING && c->attempt + 1 >= REQUESTS_MAX)
		return solicit(c);
	c->attempt++;
	return client_send(c);
}

void dhcp6_client_stop(struct dhcp6_client *c)
{
	if (c->nl_fd >= 0)
		close(c->nl_fd);
	if (c->udp_fd >= 0)
		close(c->udp_fd);
	c->nl_fd = c->udp_fd = -1;
	explicit_bzero(&c->offer, sizeof(c->offer));
	if (!c->done)
		explicit_bzero(&c->lease, sizeof(c->lease));
}

void dhcp6_client_result(const struct dhcp6_client *c, struct net6_conf *out)
{
	memset(out, 0, sizeof(*out));
	out->method = "dhcp6";
	out->addr = c->lease.addr;
	out->prefix = 128;
	out->server = c->server;
	out->n_dns = c->lease.n_dns;
	memcpy(out->dns, c->lease.dns, sizeof(out->dns));
	memcpy(out->domain, c->lease.domain, sizeof(out->domain));
	memcpy(out->boot_url, c->lease.boot_url, sizeof(out->boot_url));
}
