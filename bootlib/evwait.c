/* evwait: the waits of net/ on kernel events, with deadlines as poll() timeouts.
 *
 * A wait opens its uevent socket before it first looks at sysfs: what
 * appears before is seen by that look, what appears after is queued. It
 * then sleeps only in poll(), until an event or the deadline. Its events
 * are handled by the event loop's drain (bootlib/evloop.c), as every
 * other wait's.
 */
#include "bootlib/evwait.h"

#include <errno.h>
#include <limits.h>

#include "bootlib/evloop.h"

int evwait_poll(struct pollfd *fds, int n, uint64_t deadline)
{
	uint64_t now = clock_now_ms();
	int timeout = -1, r;

	if (deadline) {
		if (now >= deadline)
			return 0;
		timeout = deadline - now > INT_MAX ? INT_MAX : (int)(deadline - now);
	}
	r = poll(fds, (nfds_t)n, timeout);
	if (r < 0)
		return errno == EINTR ? 1 : -errno;
	return r;
}

struct net_match {
	bool (*fn)(const struct uevent *ev);
};

static bool call_match(const struct uevent *ev, void *ctx)
{
	const struct net_match *m = ctx;

	return m->fn(ev);
}

bool evwait_uevents(int fd, bool (*match)(const struct uevent *ev))
{
	struct net_match m = { match };

	return evloop_drain(fd, match ? call_match : NULL, &m);
}
