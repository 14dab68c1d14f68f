/* links: wait for network interfaces to appear and have a carrier, by events. */
#include "net/link/links.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/coldplug.h"
#include "bootlib/evwait.h"
#include "bootlib/log.h"
#include "common/fileread.h"
#include "net/link/linkwatch.h"

/* Once one interface has a carrier, how long the others of the machine get
 * to have theirs too, so DHCP can go through them in bus order. */
#define SETTLE_MS 1000

static bool links_was_up(const struct links *s, int index)
{
	for (int i = 0; i < s->n_up; i++)
		if (s->up_index[i] == index)
			return true;
	return false;
}

/* One look at the interfaces: bring new ones up, note those with carrier. */
void links_scan(struct links *s, const char *want, unsigned int mtu)
{
	struct link_info all[LINKS_MAX];
	int n = link_list(all, LINKS_MAX);

	s->n_ready = 0;
	s->n_seen = 0;
	for (int i = 0; i < n; i++) {
		if (want[0] && strcmp(all[i].name, want) != 0)
			continue;
		s->n_seen++;
		if (!links_was_up(s, all[i].index) && s->n_up < LINKS_MAX) {
			int r = link_up(all[i].index, mtu);

			if (r < 0)
				log_warn("setting %s up failed: %s", all[i].name, strerror(-r));
			s->up_index[s->n_up++] = all[i].index;
		}
		if (link_has_carrier(all[i].index))
			s->ready[s->n_ready++] = all[i];
	}
}

/* Network controllers on the PCI bus (class 02xxxx), whether or not their
 * interface exists yet: a driver probing in the background makes its
 * interface appear later than the others'. */
static int pci_network_count(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char path[300], cls[16];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/class", de->d_name);
		if (file_read_line(path, cls, sizeof(cls)) == 0 && strncmp(cls, "0x02", 4) == 0)
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* Whether the wait is over: every interface there is has its carrier, and
 * every PCI network controller has its interface (with a name asked for,
 * that one). */
static bool links_complete(const struct links *s, int expected)
{
	return s->n_ready > 0 && s->n_ready == s->n_seen && s->n_seen >= expected;
}

/* A uevent that may change the interfaces: one of the net subsystem. */
static bool net_event(const struct uevent *ev)
{
	return ev->subsystem && strcmp(ev->subsystem, "net") == 0;
}

/* Handle what woke the wait: load the drivers of devices that appeared (a
 * virtio NIC appears only once virtio_pci is loaded), read the link
 * messages. True when the interfaces should be looked at again. */
static bool links_events(struct pollfd fds[2])
{
	bool look = evwait_uevents(fds[0].fd, net_event);
	int r = linkwatch_drain(fds[1].fd);

	if (r == -ENOBUFS)
		log_warn("rtnetlink: link messages were lost; looking at every interface again");
	return look || r != 0;
}

/* When the wait ends without news: the deadline, or SETTLE_MS after the
 * first carrier if that is sooner. */
static uint64_t links_until(const struct links *s, uint64_t deadline, uint64_t *settled)
{
	if (s->n_ready > 0 && !*settled)
		*settled = clock_now_ms() + SETTLE_MS;
	return *settled && *settled < deadline ? *settled : deadline;
}

/* The uevent and rtnetlink sockets are opened before the coldplug pass and
 * the first look, so that nothing that happens after either is missed; the
 * wait then sleeps only in poll(). Done early when links_complete(); else
 * the other interfaces get SETTLE_MS after the first carrier. */
int links_wait(struct links *s, const char *want, unsigned int mtu, unsigned int timeout_ms)
{
	uint64_t deadline = clock_now_ms() + timeout_ms, settled = 0;
	struct pollfd fds[2] = { { .fd = uevent_open(), .events = POLLIN },
				 { .fd = linkwatch_open(), .events = POLLIN } };
	int expected = want[0] ? 1 : pci_network_count();
	int r = fds[0].fd < 0 ? fds[0].fd : fds[1].fd;

	memset(s, 0, sizeof(*s));
	if (fds[0].fd >= 0 && fds[1].fd >= 0) {
		coldplug_devices();
		links_scan(s, want, mtu);
		while (!links_complete(s, expected) &&
		       evwait_poll(fds, 2, links_until(s, deadline, &settled)) > 0)
			if (links_events(fds))
				links_scan(s, want, mtu);
		r = s->n_ready > 0 ? 0 : -ETIMEDOUT;
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	return r;
}

