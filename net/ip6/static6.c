/* static6: ip=[ADDR]:...: the address is usable only after duplicate address detection. */
#include "net/ip6/static6.h"

#include <errno.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <unistd.h>

#include "net/ip6/addrwatch.h"

#define ADDR_EVENTS 16

int static6_client_start(struct static6_client *c, const struct link_info *link,
			 const struct in6_addr *addr, int prefix)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->link = link;
	c->addr = *addr;
	c->prefix = prefix;
	/* Listening first: the event of DAD's end cannot come before it. */
	c->nl_fd = addrwatch_open();
	if (c->nl_fd < 0)
		return c->nl_fd;
	r = link_add_address6(link->index, addr, prefix);
	return r < 0 ? r : addrwatch_dump(c->nl_fd);
}

int static6_client_input(struct static6_client *c)
{
	struct addr_event ev[ADDR_EVENTS];
	int n = addrwatch_read(c->nl_fd, ev, ADDR_EVENTS);

	for (int i = 0; i < n; i++) {
		if (ev[i].index != c->link->index || memcmp(&ev[i].addr, &c->addr, 16) != 0)
			continue;
		if (ev[i].flags & IFA_F_DADFAILED)
			return -EADDRINUSE;
		if (addrwatch_event_usable(&ev[i], c->link->index, RT_SCOPE_UNIVERSE)) {
			c->done = true;
			return 1;
		}
	}
	return n < 0 ? n : 0;
}

void static6_client_stop(struct static6_client *c)
{
	if (c->nl_fd >= 0)
		close(c->nl_fd);
	c->nl_fd = -1;
}
