/* iscsi_pack: what an image needs for a root on iSCSI (lifeboat build --iscsi). */
#ifndef LIFEBOAT_ISCSI_PACK_H
#define LIFEBOAT_ISCSI_PACK_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/opts/build_ctx.h"

/* --iscsi, or a host-only image on a machine with an iSCSI session (its
 * root may be on it). Its entry of the feature table (gen/feature/feature.h)
 * adds the modules and iscsistart. */
bool iscsi_pack_wanted(const struct build_ctx *c);
/* Whether a command line carries CHAP secrets (rd.iscsi.password=,
 * rd.iscsi.in.password=, or USER:PASSWORD@ in an iscsi: root path). */
bool iscsi_pack_has_secrets(const char *cmdline);
/* cmdline with each secret replaced by "*" (for build.conf, which anyone
 * listing the image sees). */
void iscsi_pack_redact(const char *cmdline, char *out, size_t size);

#endif
