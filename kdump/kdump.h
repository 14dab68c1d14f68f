/* kdump: the capture kernel's work. When the init runs in a kernel started
 * by a crash (the kernel gives /proc/vmcore), it skips the root, saves the
 * crashed kernel's memory to the image's targets (kdump.conf) and reboots. */
#ifndef LIFEBOAT_KDUMP_KDUMP_H
#define LIFEBOAT_KDUMP_KDUMP_H

#include "bootlib/cmdline.h"

/* Returns at once when this is no capture kernel; otherwise saves the dump
 * and takes the configured action, and does not return. net is for network
 * targets; rescue (rd.shell) for the gate of a shell action
 * (bootlib/shell.h). */
void kdump_capture_if_crashed(const struct net_args *net, const struct rescue_args *rescue);

#endif
