/* mpath_pack: what an image needs for a root on a multipath SAN LUN
 * (lifeboat build --multipath, or multipath = yes in lifeboat.conf). */
#ifndef LIFEBOAT_MPATH_PACK_H
#define LIFEBOAT_MPATH_PACK_H

#include <stdbool.h>

#include "gen/opts/build_ctx.h"

/* --multipath, or a host-only image whose root stack holds a dm-multipath
 * map (an "mpath-" dm uuid: dm_multipath among the root's modules). */
bool mpath_pack_wanted(const struct build_ctx *c);

#endif
