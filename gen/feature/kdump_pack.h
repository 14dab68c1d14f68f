/* kdump_pack: what `lifeboat build --kdump` adds to an image: the capture
 * settings (/etc/lifeboat/kdump.conf) and, for URL targets, libcurl with
 * its libraries and a CA bundle. */
#ifndef LIFEBOAT_GEN_KDUMP_PACK_H
#define LIFEBOAT_GEN_KDUMP_PACK_H

#include "gen/opts/build_opts.h"
#include "gen/image/image.h"

/* Nothing without --kdump. Returns 0, or -errno after reporting. */
int kdump_pack(const struct build_opts *o, struct image *img, const char *init);

#endif
