/* evwait: the waits of net/ on kernel events, with deadlines as poll() timeouts.
 *
 * A wait opens its uevent socket before it first looks at sysfs: what
 * appears before is seen by that look, what appears after is queued. It
 * then sleeps only in poll(), until an event or the deadline.
 */
#include "bootlib/evwait.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>

#include "bootlib/coldplug.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "common/modtab.h"

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

bool evwait_uevents(int fd, bool (*match)(const struct uevent *ev))
{
	char buf[UEVENT_BUFFER];
	struct uevent ev;
	bool look = false;
	int r;

	while ((r = uevent_receive(fd, buf, sizeof(buf), &ev)) != -EAGAIN) {
		if (r == -ENOBUFS) {
			log_warn("uevent queue overflowed; loading drivers for every device again");
			coldplug_devices();
			look = true;
			continue;
		}
		if (r == -EPERM || r == -EINVAL)
			continue;   /* not the kernel's, or not a uevent */
		if (r < 0)
			break;
		if (strcmp(ev.action, "add") == 0 && ev.modalias &&
		    modalias_wanted_at_boot(ev.modalias))
			modload_modalias(ev.modalias);
		if (!match || match(&ev))
			look = true;
	}
	return look;
}
