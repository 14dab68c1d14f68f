/* wayout_pack: the way out at shutdown (lifeboat-shutdown) in the image. */
#ifndef LIFEBOAT_WAYOUT_PACK_H
#define LIFEBOAT_WAYOUT_PACK_H

#include <stdbool.h>

#include "gen/host/hostfacts.h"

/* Whether the host's root, as read, has a layer the way out takes down at
 * shutdown (LUKS, LVM, another device-mapper target, md, iSCSI, NFS), or
 * could not be followed. */
bool wayout_pack_host_needs(const struct host_facts *h);

#endif
