/* linkwatch: the kernel's news of network interfaces (rtnetlink(7), netlink(7)).
 *
 * The kernel sends RTM_NEWLINK when an interface registers and whenever its
 * flags change, carrier (IFF_LOWER_UP) included: listening for these lets
 * the wait for a carrier sleep in poll() instead of reading sysfs in a loop.
 */
#include "net/link/linkwatch.h"

#include <errno.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/nlsock.h"

/* Larger than one RTM_NEWLINK with all its attributes (a few KiB). */
#define LINKWATCH_BUF 16384
#define LINKWATCH_EVENTS 16

int linkwatch_open(void)
{
	return nlsock_open(SOCK_RAW | SOCK_NONBLOCK, NETLINK_ROUTE, RTMGRP_LINK);
}

/* IFLA_IFNAME: a NUL-terminated name that fits IF_NAMESIZE. */
static int name_copy(const char *data, size_t len, char *name)
{
	size_t n = strnlen(data, len);

	if (n == len || n >= IF_NAMESIZE)
		return -EINVAL;
	memcpy(name, data, n + 1);
	return 0;
}

/* The attributes after the ifinfomsg; only the name is kept. The buffer
 * may be unaligned (a fuzzer's input), so headers are copied out. */
static int attrs_parse(const char *p, size_t len, struct link_event *ev)
{
	while (len >= sizeof(struct rtattr)) {
		struct rtattr a;

		memcpy(&a, p, sizeof(a));
		if (a.rta_len < sizeof(a) || a.rta_len > len)
			return -EINVAL;
		if ((a.rta_type & NLA_TYPE_MASK) == IFLA_IFNAME &&
		    name_copy(p + RTA_LENGTH(0), a.rta_len - RTA_LENGTH(0), ev->name) < 0)
			return -EINVAL;
		if (RTA_ALIGN(a.rta_len) >= len)
			return 0;
		p += RTA_ALIGN(a.rta_len);
		len -= RTA_ALIGN(a.rta_len);
	}
	return len == 0 ? 0 : -EINVAL;
}

static int link_message(const char *p, const struct nlmsghdr *h, struct link_event *ev)
{
	struct ifinfomsg ifi;
	size_t body = NLMSG_ALIGN(sizeof(ifi));

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(ifi)))
		return -EINVAL;
	memcpy(&ifi, p + NLMSG_HDRLEN, sizeof(ifi));
	memset(ev, 0, sizeof(*ev));
	ev->index = ifi.ifi_index;
	ev->flags = ifi.ifi_flags;
	ev->removed = h->nlmsg_type == RTM_DELLINK;
	if (h->nlmsg_len <= NLMSG_HDRLEN + body)
		return 0;
	return attrs_parse(p + NLMSG_HDRLEN + body, h->nlmsg_len - NLMSG_HDRLEN - body, ev);
}

int linkwatch_parse(const void *buf, size_t len, struct link_event *out, int max)
{
	const char *p = buf;
	int n = 0;

	while (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;
		struct link_event ev;

		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return -EINVAL;
		if (h.nlmsg_type == RTM_NEWLINK || h.nlmsg_type == RTM_DELLINK) {
			if (link_message(p, &h, &ev) < 0)
				return -EINVAL;
			if (n < max)
				out[n] = ev;
			n++;
		}
		if (NLMSG_ALIGN(h.nlmsg_len) >= len)
			return n;
		p += NLMSG_ALIGN(h.nlmsg_len);
		len -= NLMSG_ALIGN(h.nlmsg_len);
	}
	return len == 0 ? n : -EINVAL;
}

static void events_log(const struct link_event *ev, int n)
{
	for (int i = 0; i < n && i < LINKWATCH_EVENTS; i++)
		log_debug("link %s (index %d): %s%s%s", ev[i].name[0] ? ev[i].name : "?",
			  ev[i].index, ev[i].removed ? "removed" : "present",
			  ev[i].flags & IFF_UP ? ", up" : "",
			  ev[i].flags & IFF_LOWER_UP ? ", carrier" : "");
}

int linkwatch_drain(int fd)
{
	static char buf[LINKWATCH_BUF];
	struct link_event ev[LINKWATCH_EVENTS];
	int total = 0;

	for (;;) {
		ssize_t got = recv(fd, buf, sizeof(buf), MSG_TRUNC);
		int n;

		if (got < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? total : -errno;
		n = (size_t)got > sizeof(buf) ? -EINVAL : linkwatch_parse(buf, (size_t)got, ev,
									 LINKWATCH_EVENTS);
		if (n < 0) {
			log_warn("rtnetlink: a malformed link message (%zd bytes); looking at "
				 "every interface again", got);
			n = 1;
		} else {
			events_log(ev, n);
		}
		total += n;
	}
}
