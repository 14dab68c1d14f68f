/* ibft: the boot target the firmware logged in to, from /sys/firmware/ibft. */
#ifndef LIFEBOAT_NET_IBFT_H
#define LIFEBOAT_NET_IBFT_H

#include <stddef.h>

#include "net/iscsi/rfc4173.h"

#define IBFT_SYSFS "/sys/firmware/ibft"

/* Read the first target of the iBFT under dir (IBFT_SYSFS; the kernel's
 * iscsi_ibft module publishes it) into *t, and the firmware's initiator name
 * into initiator (empty when the table has none). Only IPv4 targets are
 * taken; the CHAP pairs come along when the table has them.
 * Returns 0, -ENOENT (no iBFT, or no target in it), -EINVAL (a target
 * without an address or name), -EAFNOSUPPORT (an IPv6 target). */
int ibft_read(const char *dir, struct iscsi_target *t, char *initiator, size_t initiator_size);

#endif
