/* kdump: the capture kernel's work. When the init runs in a kernel started
 * by a crash (the kernel gives /proc/vmcore), it skips the root, saves the
 * crashed kernel's memory to the image's targets (kdump.conf) and reboots. */
#ifndef LIFEBOAT_KDUMP_KDUMP_H
#define LIFEBOAT_KDUMP_KDUMP_H

#include <stdbool.h>

#include "bootlib/rescue_args.h"
#include "net/net_args.h"

/* Whether this kernel was started by a crash: it gives /proc/vmcore. */
bool kdump_capture_needed(void);
/* In a capture kernel: save the dump and take the configured action; does
 * not return. net is for network
 * targets; rescue (rd.shell) for the gate of a shell action
 * (bootlib/shell.h). A dump disk in LUKS is opened by blockstack/ (set up
 * before this), unattended: key files, TPM2 token, Tang binding (tang:
 * the image has the Tang unlock, so the network comes up first), and a
 * prompt bounded by KDUMP_PROMPT_SEC. */
#define KDUMP_PROMPT_SEC 30
void kdump_capture(const struct net_args *net, const struct rescue_args *rescue, bool tang);

#endif
