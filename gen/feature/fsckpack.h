/* fsckpack: the filesystem checker the init runs before mounting the root (fsck/). */
#ifndef LIFEBOAT_FSCKPACK_H
#define LIFEBOAT_FSCKPACK_H

#include "gen/opts/build_opts.h"
#include "gen/image/image.h"

/* Add the checkers of common/fsckcheck.h with their libraries: a generic
 * image gets each one the build host has; a host-only image the root
 * filesystem's (root_fstype, may be NULL) only with --fsck, as e2fsck would
 * take it past its size target (docs/blockstacks.md); --no-fsck: none.
 * A checker missing on the host is skipped (a generic image) or an error
 * naming its package (--fsck). Returns 0 or -errno (reported). */
int fsckpack_add(const struct build_opts *o, const char *root_fstype, struct image *img);

#endif
