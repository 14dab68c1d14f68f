/* linkwatch: the kernel's news of network interfaces (rtnetlink RTMGRP_LINK). */
#ifndef LIFEBOAT_NET_LINKWATCH_H
#define LIFEBOAT_NET_LINKWATCH_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

/* One RTM_NEWLINK or RTM_DELLINK: an interface appeared, changed or left. */
struct link_event {
	int index;
	unsigned int flags;            /* IFF_UP, IFF_LOWER_UP (carrier), ... */
	bool removed;                  /* RTM_DELLINK */
	char name[IF_NAMESIZE];        /* "" when the message names none */
};

/* Open a non-blocking rtnetlink socket subscribed to link changes.
 * Returns the fd or -errno. */
int linkwatch_open(void);
/* Parse one datagram read from that socket. Up to max link messages go to
 * out; other message types are skipped. Returns how many link messages the
 * datagram held (those past max counted, not stored), or -EINVAL when a
 * header or an attribute is cut off or runs past its message. */
int linkwatch_parse(const void *buf, size_t len, struct link_event *out, int max);
/* Read every queued datagram (logging each change at debug level). Returns
 * how many link messages arrived, -ENOBUFS when the kernel dropped some (the
 * caller should look at every interface again), or another -errno. A
 * malformed datagram counts as a change: looking again costs little. */
int linkwatch_drain(int fd);

#endif
