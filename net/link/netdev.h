/* netdev: make VLANs, bonds and bridges, enslave and rename interfaces,
 * over rtnetlink (RTM_NEWLINK with IFLA_LINKINFO; no ip or brctl). */
#ifndef LIFEBOAT_NET_NETDEV_H
#define LIFEBOAT_NET_NETDEV_H

#include "net/link/netdev_spec.h"

/* Make the interface spec describes (its ports must exist, its module be
 * loaded), with its options and MTU; one the kernel made already (the
 * bonding module makes bond0 as it loads) is given the options instead.
 * Returns 0 or -errno. */
int netdev_create(const struct netdev_spec *spec);
/* Make index a port of master (down first: a bond takes only slaves that
 * are down), then set it up. Returns 0 or -errno. */
int netdev_enslave(int index, int master);
/* Give the interface at index a new name (it is set down first; names
 * change only on interfaces that are down). Returns 0 or -errno. */
int netdev_rename(int index, const char *name);

#endif
