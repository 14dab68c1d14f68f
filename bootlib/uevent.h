/* uevent: kernel device events from the netlink socket, parsed. */
#ifndef LIFEBOAT_UEVENT_H
#define LIFEBOAT_UEVENT_H

#include <stddef.h>

#define UEVENT_BUFFER 8192

/* Pointers into the message buffer; NULL when the event lacks the key. */
struct uevent {
	const char *action;
	const char *devpath;
	const char *subsystem;
	const char *devname;
	const char *devtype;
	const char *modalias;
};

/* Open a socket for kernel uevents (NETLINK_KOBJECT_UEVENT, kernel group),
 * non-blocking. Returns the fd or -errno. */
int uevent_open(void);
/* Parse one kernel message "ACTION@DEVPATH\0KEY=VALUE\0...". The buffer must
 * stay alive while ev is used. Returns 0, or -EINVAL for what is not a kernel
 * uevent (e.g. udev's "libudev" messages). */
int uevent_parse(const char *buf, size_t len, struct uevent *ev);
/* Receive and parse one message; -EAGAIN when none is queued. Messages not
 * sent by the kernel (sender pid != 0) are refused with -EPERM. */
int uevent_receive(int fd, char *buf, size_t size, struct uevent *ev);

#endif
