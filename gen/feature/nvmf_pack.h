/* nvmf_pack: what an image needs for a root on NVMe over TCP (lifeboat
 * build --nvmf): the kernel modules, and a host-only image's host
 * identity. No program: the init connects through /dev/nvme-fabrics. */
#ifndef LIFEBOAT_NVMF_PACK_H
#define LIFEBOAT_NVMF_PACK_H

#include <stdbool.h>

#include "gen/opts/build_ctx.h"

/* --nvmf, or a host-only image of a machine connected over NVMe/TCP. */
bool nvmf_pack_wanted(const struct build_ctx *c);

#endif
