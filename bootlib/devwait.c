/* devwait: load drivers as devices appear until a wanted block device shows up.
 *
 * Event-driven, with no fixed sleeps: the wait sleeps in the event loop's
 * socket (bootlib/evloop.c, opened before the coldplug pass so no device
 * is missed between the two), bounded by the deadline. The loop offers
 * each block device to the block stacks; the wait only matches them.
 */
#include "bootlib/devwait.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "bootlib/blockattr.h"
#include "bootlib/clock.h"
#include "bootlib/evloop.h"

static bool (*skip_fn)(const char *devname);

void devwait_set_skip(bool (*skip)(const char *devname))
{
	skip_fn = skip;
}

static bool check_block(const struct dev_spec *spec, const char *name, struct found_dev *found)
{
	struct blk_info info;
	unsigned int major, minor;
	bool probed = false;

	if ((skip_fn && skip_fn(name)) || blockattr_devnum(name, &major, &minor) < 0)
		return false;
	if (devspec_needs_probe(spec)) {
		if (blkprobe_dev(name, &info) < 0)
			return false;
		probed = true;
	}
	if (!devspec_matches(spec, name, major, minor, probed ? &info : NULL))
		return false;
	snprintf(found->devname, sizeof(found->devname), "%s", name);
	found->major = major;
	found->minor = minor;
	if (!probed)
		blkprobe_dev(name, &info);
	found->info = info;
	return true;
}

/* Block devices that already exist: built-in drivers, coldplug's work, or
 * what a prompt's loop saw while the wait stood under it. */
int devwait_lookup(const struct dev_spec *spec, struct found_dev *found)
{
	DIR *dir = opendir("/sys/class/block");
	struct dirent *de;
	bool hit = false;

	memset(found, 0, sizeof(*found));
	if (!dir)
		return -ENODEV;
	while (!hit && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			hit = check_block(spec, de->d_name, found);
	closedir(dir);
	return hit ? 0 : -ENODEV;
}

struct wanted {
	const struct dev_spec *spec;
	struct found_dev *found;
	bool hit;
	unsigned long under_prompt;   /* evloop_offered_under_prompt() last seen */
};

/* The loop offered the device already; does it match? */
static bool match_event(const struct uevent *ev, void *ctx)
{
	struct wanted *w = ctx;

	if (w->hit || !ev->subsystem || strcmp(ev->subsystem, "block") != 0 || !ev->devname ||
	    (strcmp(ev->action, "add") != 0 && strcmp(ev->action, "change") != 0))
		return false;
	w->hit = check_block(w->spec, ev->devname, w->found);
	return false;
}

/* Handle the queued events; true when the wanted device is there. Events
 * taken by a prompt's loop under the observer (or lost: the drain says
 * "look") are caught by looking at what exists. */
static bool drain_events(int fd, struct wanted *w)
{
	bool look = evloop_drain(fd, match_event, w);

	if (evloop_offered_under_prompt() != w->under_prompt) {
		w->under_prompt = evloop_offered_under_prompt();
		look = true;
	}
	if (!w->hit && look)
		w->hit = devwait_lookup(w->spec, w->found) == 0;
	return w->hit;
}

static int quiet_timeout(long long left)
{
	int quiet = evloop_quiet_ms();

	return left > 0 && left < quiet ? (int)left : quiet;
}

int devwait_find(const struct dev_spec *spec, unsigned int timeout_sec, struct found_dev *found)
{
	struct wanted w = { spec, NULL, false, evloop_offered_under_prompt() };
	int fd = evloop_start();
	long long deadline;

	memset(found, 0, sizeof(*found));
	w.found = found;
	if (fd < 0)
		return fd;
	/* The time counts once the first wait's coldplug has loaded the drivers
	 * of the devices present: on a slow or loaded machine loading them can
	 * take longer than a short rd.resume.timeout, and a device whose driver
	 * is still loading has not failed to appear. */
	deadline = timeout_sec ? (long long)clock_now_ms() + timeout_sec * 1000LL : 0;
	/* A LUKS, LVM or md member: what it assembles is offered in turn. */
	evloop_offer_existing();
	if (devwait_lookup(spec, found) == 0 || drain_events(fd, &w))
		return 0;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = deadline ? deadline - (long long)clock_now_ms() : -1;
		int n;

		if (deadline && left <= 0)
			break;
		n = poll(&pfd, 1, quiet_timeout(left));
		if (n < 0 && errno != EINTR)
			break;
		/* Quiet for a while: md arrays still missing members start degraded. */
		if (n == 0 && (!deadline || (long long)clock_now_ms() < deadline))
			evloop_quiet();
		if (drain_events(fd, &w))
			return 0;
	}
	/* What is reported (and the rescue) sees every controller's disks. */
	evloop_load_late();
	return -ETIMEDOUT;
}
