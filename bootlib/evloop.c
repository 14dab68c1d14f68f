/* evloop: the one loop that follows kernel events, also while a prompt waits.
 *
 * Every wait of the init sleeps here: the device wait (devwait.c), net/'s
 * waits (evwait.c), and a prompt waiting for a person (console.c) or for
 * the rescue shell to end. Whichever waits, a uevent is handled the same
 * way: the driver its MODALIAS asks for is loaded, and a block device is
 * offered to the observer (blockstack/). A prompt therefore never stops
 * the boot from following its devices: the USB keyboard that enumerates
 * while the passphrase prompt waits gets its HID driver, and a disk that
 * appears meanwhile is assembled (or, if it needs a prompt of its own,
 * queued by the observer until the console is free).
 */
#include "bootlib/evloop.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/blockattr.h"
#include "bootlib/clock.h"
#include "bootlib/coldplug.h"
#include "bootlib/log.h"
#include "bootlib/splash.h"
#include "bootlib/timeline.h"
#include "common/layout.h"
#include "common/modtab.h"

static const struct evloop_observer *observer;
static int uevent_fd = -1;
static unsigned int prompt_depth;
static unsigned long offered_under_prompt;
/* Late devices (coldplug_is_late) whose drivers are not loaded yet. */
static bool late_pending;

void evloop_observe(const struct evloop_observer *obs)
{
	observer = obs;
}

int evloop_start(void)
{
	int loaded;

	if (uevent_fd >= 0)
		return uevent_fd;
	uevent_fd = uevent_open();
	if (uevent_fd < 0)
		return uevent_fd;
	if (access(LAYOUT_GENERIC, F_OK) == 0)
		loaded = coldplug_early(&late_pending);
	else
		loaded = coldplug_devices();
	timeline_mark("modules", "%d loaded by coldplug%s", loaded,
		      late_pending ? ", IDE controllers and PS/2 ports left for later" : "");
	return uevent_fd;
}

void evloop_load_late(void)
{
	if (!late_pending)
		return;
	late_pending = false;
	timeline_mark("late", "%d loaded for the IDE controllers and PS/2 ports", coldplug_late());
}

int evloop_quiet_ms(void)
{
	return late_pending ? EVLOOP_LATE_MS : EVLOOP_QUIET_MS;
}

static void offer(const char *devname)
{
	unsigned int major, minor;

	/* Gone again already, or not a device node (a "remove" race). */
	if (blockattr_devnum(devname, &major, &minor) < 0)
		return;
	if (prompt_depth)
		offered_under_prompt++;
	if (observer && observer->added)
		observer->added(devname);
}

void evloop_offer_existing(void)
{
	DIR *dir = opendir("/sys/class/block");
	struct dirent *de;

	if (!dir)
		return;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.')
			offer(de->d_name);
	closedir(dir);
}

unsigned long evloop_offered_under_prompt(void)
{
	return offered_under_prompt;
}

void evloop_quiet(void)
{
	/* First the late drivers: md must not start an array degraded while
	 * a member may sit on a controller not probed yet. */
	if (late_pending) {
		evloop_load_late();
		return;
	}
	if (observer && observer->settled)
		observer->settled();
}

static bool is_block(const struct uevent *ev)
{
	return ev->subsystem && strcmp(ev->subsystem, "block") == 0 && ev->devname;
}

/* An md array becomes usable by a "change" once it starts, so block
 * "change" events are offered as well as "add". */
static void handle(const struct uevent *ev, bool offers)
{
	bool add = strcmp(ev->action, "add") == 0;

	if (add && ev->modalias && modtab_modalias_wanted(ev->modalias))
		coldplug_load(ev->modalias, late_pending);
	/* A graphics card for plymouth (bootlib/splash.h). */
	splash_uevent(ev->action, ev->subsystem, ev->devname);
	if (offers && is_block(ev) && (add || strcmp(ev->action, "change") == 0))
		offer(ev->devname);
}

bool evloop_drain(int fd, bool (*match)(const struct uevent *ev, void *ctx), void *ctx)
{
	char buf[UEVENT_BUFFER];
	struct uevent ev;
	bool offers = fd == uevent_fd, look = false;
	int r;

	while ((r = uevent_receive(fd, buf, sizeof(buf), &ev)) != -EAGAIN) {
		if (r == -ENOBUFS) {
			log_warn("uevent queue overflowed; loading drivers for every device again");
			coldplug_devices();
			if (offers)
				evloop_offer_existing();
			look = true;
			continue;
		}
		if (r == -EPERM || r == -EINVAL)
			continue;   /* not the kernel's, or not a uevent */
		if (r < 0)
			break;
		handle(&ev, offers);
		if (!match || match(&ev, ctx))
			look = true;
	}
	return look;
}

/* The buses keyboards sit on: USB HID (the interface, then the HID device
 * usbhid creates), I2C HID, virtio input, Hyper-V, PS/2. */
static const char *const input_buses[] = { "usb", "hid", "i2c", "virtio", "vmbus", "serio", NULL };

/* Before the first prompt: events already queued (the HID device usbhid
 * announced) are handled, and every keyboard present gets its driver. */
static void input_ready(void)
{
	if (uevent_fd < 0)
		return;   /* the boot follows no devices yet (rd.break=cmdline) */
	evloop_drain(uevent_fd, NULL, NULL);
	coldplug_buses(input_buses);
	/* Every device has its driver before a person is asked anything. */
	evloop_load_late();
}

void evloop_prompt_begin(void)
{
	if (prompt_depth++ == 0)
		input_ready();
}

void evloop_prompt_end(void)
{
	if (prompt_depth && --prompt_depth == 0 && observer && observer->console_free)
		observer->console_free();
}

bool evloop_prompt_busy(void)
{
	return prompt_depth > 0;
}

/* poll()'s timeout: the quiet period while the uevent socket is served,
 * shortened to what is left before deadline_ms (0: none); -1 for ever. */
static int poll_timeout(bool events, int quiet, uint64_t deadline_ms)
{
	uint64_t now, left;

	if (!deadline_ms)
		return events ? quiet : -1;
	now = clock_now_ms();
	left = deadline_ms > now ? deadline_ms - now : 0;
	return events && left > (uint64_t)quiet ? quiet : (int)left;
}

/* Poll fds and the uevent socket (last) until one of fds is ready or
 * deadline_ms (CLOCK_MONOTONIC, 0: none) passes, handling uevents and
 * quiet periods meanwhile. */
static int wait_ready(struct pollfd *pfds, size_t n, uint64_t deadline_ms)
{
	size_t all = n;

	if (uevent_fd >= 0)
		pfds[all++] = (struct pollfd){ .fd = uevent_fd, .events = POLLIN };
	for (;;) {
		int timeout, quiet, r;

		if (deadline_ms && clock_now_ms() >= deadline_ms)
			return -ETIMEDOUT;
		quiet = evloop_quiet_ms();
		timeout = poll_timeout(all > n, quiet, deadline_ms);
		r = poll(pfds, (nfds_t)all, timeout);
		if (r < 0 && errno != EINTR)
			return -errno;
		/* Not when the deadline cut the wait short: that was no quiet period. */
		if (r == 0 && timeout == quiet)
			evloop_quiet();
		if (r <= 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (pfds[i].revents)
				return (int)i;
		evloop_drain(uevent_fd, NULL, NULL);
	}
}

#define EVLOOP_INPUT_MAX 8

int evloop_wait_input(const int *fds, size_t n, uint64_t deadline_ms)
{
	struct pollfd pfds[EVLOOP_INPUT_MAX + 1];

	if (n > EVLOOP_INPUT_MAX)
		n = EVLOOP_INPUT_MAX;
	for (size_t i = 0; i < n; i++)
		pfds[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	return wait_ready(pfds, n, deadline_ms);
}

static int reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int evloop_wait_child(pid_t pid)
{
	/* A pidfd becomes readable when the child ends (Linux 5.3). */
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd pfds[2] = { { .fd = pidfd, .events = POLLIN } };

	int r;

	/* The child (a shell) holds the console: prompts queue behind it.
	 * Without a pidfd (an older kernel) or when poll fails, the events
	 * wait in the socket until the child ends. */
	evloop_prompt_begin();
	if (pidfd >= 0) {
		wait_ready(pfds, 1, 0);
		close(pidfd);
	}
	r = reap(pid);
	evloop_prompt_end();
	return r;
}
