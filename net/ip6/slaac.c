/* slaac: wait for the kernel's stateless autoconfiguration (RFC 4862) by events.
 *
 * The kernel does the work: with accept_ra and autoconf on, it makes an
 * address from each advertised prefix with the A flag, runs duplicate
 * address detection and adds the routes. What the init must do is know when
 * an address is usable: RTM_NEWADDR without IFA_F_TENTATIVE. The
 * advertisements are read too, for what the kernel keeps to itself: the
 * name servers (RDNSS) and the router, written for the real root. */
#include "net/ip6/slaac.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/rtnetlink.h>
#include <netinet/icmp6.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "net/ip6/addrwatch.h"

#define RA_BUF 1500
#define ADDR_EVENTS 16

static int icmp_open(const struct link_info *link)
{
	struct icmp6_filter filter;
	int hops = 255, one = 1;
	int fd = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_ICMPV6);

	if (fd < 0)
		return -errno;
	ICMP6_FILTER_SETBLOCKALL(&filter);
	ICMP6_FILTER_SETPASS(ND_ROUTER_ADVERT, &filter);
	/* Neighbour discovery messages carry hop limit 255, so that one from
	 * beyond the link (decremented by a router) is told apart. */
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, link->name, strlen(link->name)) < 0 ||
	    setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filter, sizeof(filter)) < 0 ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &hops, sizeof(hops)) < 0 ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, &one, sizeof(one)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/* To all routers (ff02::2) on the link; no source link-layer option, as
 * the source may still be unspecified (RFC 4861 4.1). */
static int solicit(struct slaac_client *c)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6,
				   .sin6_scope_id = (uint32_t)c->link->index };
	uint8_t buf[16];
	int len = ra_solicit_build(NULL, buf, sizeof(buf));

	inet_pton(AF_INET6, "ff02::2", &to.sin6_addr);
	c->next_ms = clock_now_ms() + backoff_ms(&c->rnd, c->attempt++);
	/* Just after the carrier the link may have no address yet
	 * (EADDRNOTAVAIL), or no multicast route yet (ENETUNREACH, ENETDOWN:
	 * the kernel may tell of the carrier before IPv6 has set the link
	 * up): the next solicitation, at its backoff time, tries again. */
	if (sendto(c->icmp_fd, buf, (size_t)len, 0, (struct sockaddr *)&to, sizeof(to)) < 0 &&
	    errno != EADDRNOTAVAIL && errno != ENETUNREACH && errno != ENETDOWN)
		return -errno;
	return 0;
}

int slaac_client_start(struct slaac_client *c, const struct link_info *link)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->nl_fd = c->icmp_fd = -1;
	c->link = link;
	backoff_seed(&c->rnd, link->mac);
	r = link_ipv6_setting(link->name, "accept_ra", "1");
	if (r == 0)
		r = link_ipv6_setting(link->name, "autoconf", "1");
	if (r < 0)
		return r;
	c->nl_fd = addrwatch_open();
	if (c->nl_fd < 0)
		return c->nl_fd;
	c->icmp_fd = icmp_open(link);
	if (c->icmp_fd < 0)
		return c->icmp_fd;
	return solicit(c);
}

static int hop_limit(struct msghdr *msg)
{
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm))
		if (cm->cmsg_level == IPPROTO_IPV6 && cm->cmsg_type == IPV6_HOPLIMIT) {
			int h;

			memcpy(&h, CMSG_DATA(cm), sizeof(h));
			return h;
		}
	return -1;
}

static void ra_receive(struct slaac_client *c)
{
	uint8_t buf[RA_BUF];
	char control[CMSG_SPACE(sizeof(int))];
	struct sockaddr_in6 from;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov,
			      .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	ssize_t n = recvmsg(c->icmp_fd, &msg, 0);
	char router[INET6_ADDRSTRLEN];

	if (n < 0 || (msg.msg_flags & MSG_TRUNC) || hop_limit(&msg) != 255 ||
	    ra_parse(buf, (size_t)n, &c->ra) < 0)
		return;
	c->have_ra = true;
	c->router = from.sin6_addr;
	inet_ntop(AF_INET6, &from.sin6_addr, router, sizeof(router));
	log_info("%s: router advertisement from %s%s%s, %u prefix(es), %u name server(s)",
		 c->link->name, router, c->ra.managed ? ", addresses by DHCPv6" : "",
		 c->ra.router_lifetime ? ", default router" : "", c->ra.n_prefix, c->ra.n_dns);
}

static int addr_receive(struct slaac_client *c)
{
	struct addr_event ev[ADDR_EVENTS];
	int n = addrwatch_read(c->nl_fd, ev, ADDR_EVENTS);

	for (int i = 0; i < n; i++) {
		if (ev[i].index == c->link->index && (ev[i].flags & IFA_F_DADFAILED)) {
			char a[INET6_ADDRSTRLEN];

			inet_ntop(AF_INET6, &ev[i].addr, a, sizeof(a));
			log_warn("%s: %s is used by another machine on the link (DAD failed)",
				 c->link->name, a);
		}
		if (addrwatch_event_usable(&ev[i], c->link->index, RT_SCOPE_UNIVERSE)) {
			c->addr = ev[i].addr;
			c->prefix = ev[i].prefix;
			c->done = true;
			return 1;
		}
	}
	return n < 0 ? n : 0;
}

int slaac_client_input(struct slaac_client *c, int which)
{
	if (which == 1) {
		ra_receive(c);
		return 0;
	}
	return addr_receive(c);
}

int slaac_client_timer(struct slaac_client *c)
{
	return solicit(c);
}

void slaac_client_stop(struct slaac_client *c)
{
	if (c->nl_fd >= 0)
		close(c->nl_fd);
	if (c->icmp_fd >= 0)
		close(c->icmp_fd);
	c->nl_fd = c->icmp_fd = -1;
}

void slaac_client_result(const struct slaac_client *c, struct net6_conf *out)
{
	memset(out, 0, sizeof(*out));
	out->method = "auto6";
	out->addr = c->addr;
	out->prefix = c->prefix;
	if (c->have_ra && c->ra.router_lifetime)
		out->gateway = c->router;
	for (unsigned int i = 0; c->have_ra && i < c->ra.n_dns; i++)
		out->dns[out->n_dns++] = c->ra.dns[i];
}
