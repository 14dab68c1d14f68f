/* rescue_pack: the rescue shell in the image (--rescue, --rescue-auth). */
#ifndef LIFEBOAT_RESCUE_PACK_H
#define LIFEBOAT_RESCUE_PACK_H

#include "gen/opts/build_opts.h"
#include "gen/image/image.h"

/* Where --rescue busybox takes busybox from: Debian's busybox-static. */
#define RESCUE_BUSYBOX_HOST "/bin/busybox"

/* The busybox to pack, or NULL for none: --rescue PATH, "busybox" for
 * RESCUE_BUSYBOX_HOST, "none"; without --rescue, RESCUE_BUSYBOX_HOST when
 * the build host has it. */
const char *rescue_pack_busybox(const struct build_opts *o);
/* Add busybox with a link for each of its applets (and its libraries if it
 * is not static), and with --rescue-auth root's hash and libcrypt beside
 * init's libc. init is the host path of lifeboat-init. Returns 0 or -errno
 * (reported). */
int rescue_pack(const struct build_opts *o, struct image *img, const char *init);

#endif
