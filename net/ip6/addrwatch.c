/* addrwatch: IPv6 address messages of rtnetlink (rtnetlink(7)), for the end of DAD.
 *
 * An IPv6 address is usable only once duplicate address detection is over:
 * the kernel adds it with IFA_F_TENTATIVE and sends RTM_NEWADDR again when
 * the flag is cleared (or IFA_F_DADFAILED set). Listening for these lets the
 * wait sleep in poll() instead of reading the addresses in a loop. */
#include "net/ip6/addrwatch.h"

#include <errno.h>
#include <linux/if_addr.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/nlsock.h"

#define ADDRWATCH_BUF 16384

int addrwatch_dump(int fd)
{
	struct {
		struct nlmsghdr hdr;
		struct ifaddrmsg ifa;
	} req = {
		.hdr = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg)),
			 .nlmsg_type = RTM_GETADDR, .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			 .nlmsg_seq = 1 },
		.ifa = { .ifa_family = AF_INET6 },
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (sendto(fd, &req, req.hdr.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

int addrwatch_open(void)
{
	int fd = nlsock_open(SOCK_RAW | SOCK_NONBLOCK, NETLINK_ROUTE, RTMGRP_IPV6_IFADDR);
	int r;

	if (fd < 0)
		return fd;
	r = addrwatch_dump(fd);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* IFA_ADDRESS (or IFA_LOCAL) and IFA_FLAGS, which carries the flags that do
 * not fit ifa_flags' 8 bits. The buffer may be unaligned: copied out. */
static int attrs_parse(const uint8_t *p, size_t len, struct addr_event *ev, bool *has_addr)
{
	while (len >= sizeof(struct rtattr)) {
		struct rtattr a;
		size_t dlen;

		memcpy(&a, p, sizeof(a));
		if (a.rta_len < sizeof(a) || a.rta_len > len)
			return -EINVAL;
		dlen = a.rta_len - RTA_LENGTH(0);
		if ((a.rta_type == IFA_ADDRESS || a.rta_type == IFA_LOCAL) && dlen == 16) {
			memcpy(&ev->addr, p + RTA_LENGTH(0), 16);
			*has_addr = true;
		} else if (a.rta_type == IFA_FLAGS && dlen == 4) {
			memcpy(&ev->flags, p + RTA_LENGTH(0), 4);
		}
		if (RTA_ALIGN(a.rta_len) >= len)
			return 0;
		p += RTA_ALIGN(a.rta_len);
		len -= RTA_ALIGN(a.rta_len);
	}
	return len == 0 ? 0 : -EINVAL;
}

/* 1: an IPv6 address event in ev, 0: another family, -EINVAL: malformed. */
static int addr_message(const uint8_t *p, const struct nlmsghdr *h, struct addr_event *ev)
{
	struct ifaddrmsg ifa;
	size_t body = NLMSG_ALIGN(sizeof(ifa));
	bool has_addr = false;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(ifa)))
		return -EINVAL;
	memcpy(&ifa, p + NLMSG_HDRLEN, sizeof(ifa));
	if (ifa.ifa_family != AF_INET6)
		return 0;
	/* No IPv6 prefix is longer: it would reach net.IFACE.conf's PREFIX6. */
	if (ifa.ifa_prefixlen > 128)
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->index = (int)ifa.ifa_index;
	ev->removed = h->nlmsg_type == RTM_DELADDR;
	ev->prefix = ifa.ifa_prefixlen;
	ev->scope = ifa.ifa_scope;
	ev->flags = ifa.ifa_flags;
	if (h->nlmsg_len > NLMSG_HDRLEN + body &&
	    attrs_parse(p + NLMSG_HDRLEN + body, h->nlmsg_len - NLMSG_HDRLEN - body, ev,
			&has_addr) < 0)
		return -EINVAL;
	return has_addr ? 1 : 0;
}

int addrwatch_parse(const void *buf, size_t len, struct addr_event *out, int max)
{
	const uint8_t *p = buf;
	int n = 0;

	while (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;

		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return -EINVAL;
		if ((h.nlmsg_type == RTM_NEWADDR || h.nlmsg_type == RTM_DELADDR) && n < max) {
			int r = addr_message(p, &h, &out[n]);

			if (r < 0)
				return -EINVAL;
			n += r;
		}
		if (NLMSG_ALIGN(h.nlmsg_len) >= len)
			return n;
		p += NLMSG_ALIGN(h.nlmsg_len);
		len -= NLMSG_ALIGN(h.nlmsg_len);
	}
	return len == 0 ? n : -EINVAL;
}

int addrwatch_read(int fd, struct addr_event *out, int max)
{
	static uint8_t buf[ADDRWATCH_BUF];
	ssize_t got = recv(fd, buf, sizeof(buf), MSG_TRUNC);

	int n;

	if (got < 0 && errno == ENOBUFS)
		return addrwatch_dump(fd);
	if (got < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	n = (size_t)got > sizeof(buf) ? -EINVAL : addrwatch_parse(buf, (size_t)got, out, max);
	return n < 0 ? 0 : n;
}

bool addrwatch_event_usable(const struct addr_event *ev, int index, uint8_t scope)
{
	return ev->index == index && !ev->removed && ev->scope == scope &&
	       !(ev->flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED));
}
