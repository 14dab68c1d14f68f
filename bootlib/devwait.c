/* devwait: load drivers as devices appear until a wanted block device shows up.
 *
 * Event-driven, with no fixed sleeps: the uevent socket is opened before the
 * coldplug pass so no device is missed between the two, and the wait is a
 * poll() on that socket bounded by the deadline.
 */
#include "bootlib/devwait.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/blockattr.h"
#include "bootlib/clock.h"
#include "bootlib/coldplug.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "common/modtab.h"
#include "bootlib/timeline.h"
#include "bootlib/uevent.h"

static const struct devwait_observer *observer;

void devwait_observe(const struct devwait_observer *obs)
{
	observer = obs;
}

static bool check_block(const struct dev_spec *spec, const char *name, struct found_dev *found)
{
	struct blk_info info;
	unsigned int major, minor;
	bool probed = false;

	if (blockattr_devnum(name, &major, &minor) < 0)
		return false;
	/* A LUKS, LVM or md member: what it assembles is offered in turn. */
	if (observer && observer->added)
		observer->added(name);
	if (devspec_needs_probe(spec)) {
		if (blk_probe(name, &info) < 0)
			return false;
		probed = true;
	}
	if (!devspec_matches(spec, name, major, minor, probed ? &info : NULL))
		return false;
	snprintf(found->devname, sizeof(found->devname), "%s", name);
	found->major = major;
	found->minor = minor;
	if (!probed)
		blk_probe(name, &info);
	found->info = info;
	return true;
}

/* Block devices that already exist: built-in drivers, or coldplug's work. */
static bool scan_existing(const struct dev_spec *spec, struct found_dev *found)
{
	DIR *dir = opendir("/sys/class/block");
	struct dirent *de;
	bool hit = false;

	if (!dir)
		return false;
	while (!hit && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			hit = check_block(spec, de->d_name, found);
	closedir(dir);
	return hit;
}

/* Handle every queued event; true when the root device appeared. */
static bool drain_events(int fd, const struct dev_spec *spec, struct found_dev *found)
{
	char buf[UEVENT_BUFFER];
	struct uevent ev;
	int r;

	while ((r = uevent_receive(fd, buf, sizeof(buf), &ev)) != -EAGAIN) {
		if (r == -ENOBUFS) {
			/* Events were lost: look at what exists instead. */
			log_warn("uevent queue overflowed; rescanning devices");
			coldplug_devices();
			if (scan_existing(spec, found))
				return true;
			continue;
		}
		if (r < 0)
			continue;
		/* An md array becomes usable by a "change" once it starts. */
		if (strcmp(ev.action, "change") == 0 && ev.subsystem &&
		    strcmp(ev.subsystem, "block") == 0 && ev.devname &&
		    check_block(spec, ev.devname, found))
			return true;
		if (strcmp(ev.action, "add") != 0)
			continue;
		if (ev.modalias && modalias_wanted_at_boot(ev.modalias))
			modload_modalias(ev.modalias);
		if (ev.subsystem && strcmp(ev.subsystem, "block") == 0 && ev.devname &&
		    check_block(spec, ev.devname, found))
			return true;
	}
	return false;
}

/* The uevent socket of the first wait stays open for the later ones (the
 * resume device, then the root): a device announced between two waits is
 * then still queued, and coldplug runs once. exec closes it (CLOEXEC). */
static int uevent_fd = -1;

static int events_start(void)
{
	int loaded;

	if (uevent_fd >= 0)
		return uevent_fd;
	uevent_fd = uevent_open();
	if (uevent_fd < 0)
		return uevent_fd;
	loaded = coldplug_devices();
	timeline_mark("modules", "%d loaded by coldplug", loaded);
	return uevent_fd;
}

/* Wait at most STACK_SETTLE_MS at a time, so that a quiet period is noticed. */
#define STACK_SETTLE_MS 5000

static int settle_timeout(long long left)
{
	return left > 0 && left < STACK_SETTLE_MS ? (int)left : STACK_SETTLE_MS;
}

int devwait_find(const struct dev_spec *spec, unsigned int timeout_sec, struct found_dev *found)
{
	long long deadline = timeout_sec ? (long long)clock_now_ms() + timeout_sec * 1000LL : 0;
	int fd = events_start();

	if (fd < 0)
		return fd;
	if (scan_existing(spec, found) || drain_events(fd, spec, found))
		return 0;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = deadline ? deadline - (long long)clock_now_ms() : -1;
		int n;

		if (deadline && left <= 0)
			break;
		n = poll(&pfd, 1, settle_timeout(left));
		if (n < 0 && errno != EINTR)
			break;
		/* Quiet for a while: md arrays still missing members start degraded. */
		if (n == 0 && (!deadline || (long long)clock_now_ms() < deadline) && observer && observer->settled)
			observer->settled();
		if (drain_events(fd, spec, found))
			return 0;
	}
	return -ETIMEDOUT;
}
