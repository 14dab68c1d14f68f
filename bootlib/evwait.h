/* evwait: the waits of net/ on kernel events, with deadlines as poll() timeouts. */
#ifndef LIFEBOAT_NET_EVWAIT_H
#define LIFEBOAT_NET_EVWAIT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "bootlib/clock.h"
#include "bootlib/uevent.h"

/* Wait until one of fds is readable or the deadline (clock_now_ms() time;
 * 0: none) passes. Returns > 0 when something is readable (or a signal
 * interrupted: look again), 0 when the time is up, or -errno. */
int evwait_poll(struct pollfd *fds, int n, uint64_t deadline);
/* Handle every uevent queued on fd (from uevent_open()): load the driver of
 * each device added, as the root device wait does. Returns true when an
 * event match() accepts arrived (match NULL: any event), or when events were
 * lost (ENOBUFS; a coldplug pass then loads what they asked for): the
 * caller should look again at what exists. */
bool evwait_uevents(int fd, bool (*match)(const struct uevent *ev));

#endif
