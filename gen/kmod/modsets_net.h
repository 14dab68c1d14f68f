/* modsets_net: the modules a network root needs (lifeboat build --net). */
#ifndef LIFEBOAT_MODSETS_NET_H
#define LIFEBOAT_MODSETS_NET_H

#include <stdbool.h>

#include "gen/kmod/kmods.h"

/* The NFS client, and NIC drivers: the common ones for a generic image, the
 * drivers of this machine's network devices for a host-only one. */
int modsets_net_add(struct kmods *k, bool generic);
/* Whether this machine's root filesystem is NFS: a host-only image then
 * needs the network without being asked. */
bool modsets_net_host_root(void);

#endif
