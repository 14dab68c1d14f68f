/* links: the interfaces to configure: brought up, waited for until they have a carrier. */
#ifndef LIFEBOAT_NET_LINKS_H
#define LIFEBOAT_NET_LINKS_H

#include "net/link/link.h"

/* What one look at the interfaces found. */
struct links {
	struct link_info ready[LINKS_MAX];   /* up, with a carrier */
	int n_ready;
	int up_index[LINKS_MAX];             /* interfaces already set up */
	int n_up;
	int n_seen;                         /* matching interfaces present */
};

/* One look at the interfaces (only the one named want, when want is not
 * ""): bring the new ones up with mtu (0: the driver's), note those with a
 * carrier in ready. */
void links_scan(struct links *s, const char *want, unsigned int mtu);
/* Load the drivers of the devices present, bring the interfaces up, and
 * wait by events (uevents, rtnetlink) for carriers: until every interface
 * has one and every PCI network controller has its interface, or a second
 * after the first carrier, or timeout_ms. Returns 0 (some interface has a
 * carrier), -ETIMEDOUT, or -errno when the kernel's events cannot be
 * listened to. */
int links_wait(struct links *s, const char *want, unsigned int mtu, unsigned int timeout_ms);

#endif
