/* blockstacks: the LUKS, LVM and md RAID tools in the image (blockstack/ runs them). */
#ifndef LIFEBOAT_BLOCKSTACKS_H
#define LIFEBOAT_BLOCKSTACKS_H

#include "gen/opts/build_ctx.h"
#include "gen/host/hostonly.h"

/* Whether a host-only image of the host h scanned needs the tool at path
 * (LAYOUT_CRYPTSETUP, LAYOUT_LVM, LAYOUT_MDADM of common/layout.h). */
bool blockstacks_host_uses(const struct host_scan *h, const char *path);

/* Add cryptsetup, lvm and mdadm with their libraries and the lvm.conf the
 * initramfs needs: all three with --block-stacks, else for a host-only
 * image those the host's root stack uses (dm-crypt, LVM, md under "/"),
 * else none. A tool the host lacks is an error naming its package.
 * Host-only images also get the configuration of the host's stack
 * (gen/host/stackhost.c); the keyscripts the image's crypttab names come
 * with what they need (gen/feature/keyscript_pack.c). Returns 0 or -errno
 * (reported). */
int blockstacks_pack(const struct build_ctx *c);

#endif
