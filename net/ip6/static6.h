/* static6: an IPv6 address from ip=, added and waited for until DAD is done. */
#ifndef LIFEBOAT_NET_STATIC6_H
#define LIFEBOAT_NET_STATIC6_H

#include <netinet/in.h>
#include <stdbool.h>

#include "net/link/link.h"

struct static6_client {
	int nl_fd;
	const struct link_info *link;
	struct in6_addr addr;
	int prefix;
	bool done;
};

/* Add addr/prefix to link and start listening for the end of its DAD. */
int static6_client_start(struct static6_client *c, const struct link_info *link,
			 const struct in6_addr *addr, int prefix);
/* 1 once DAD is done, 0 to go on, -EADDRINUSE when it failed, -errno. */
int static6_client_input(struct static6_client *c);
void static6_client_stop(struct static6_client *c);

#endif
