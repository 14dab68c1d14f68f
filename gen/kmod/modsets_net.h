/* modsets_net: the modules a network root needs (lifeboat build --net). */
#ifndef LIFEBOAT_MODSETS_NET_H
#define LIFEBOAT_MODSETS_NET_H

#include "common/strv.h"
#include "gen/kmod/kmods.h"

/* The NFS client, and NIC drivers: the common ones for a generic image
 * (host_nics NULL), else host_nics, the modules of this machine's network
 * devices' drivers (gen/host/hostfacts.h). */
int modsets_net_add(struct kmods *k, const struct strv *host_nics);

#endif
