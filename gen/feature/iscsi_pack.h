/* iscsi_pack: what an image needs for a root on iSCSI (lifeboat build --iscsi). */
#ifndef LIFEBOAT_ISCSI_PACK_H
#define LIFEBOAT_ISCSI_PACK_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/image/image.h"
#include "gen/kmod/kmods.h"
#include "gen/options.h"

/* --iscsi, or a host-only image on a machine with an iSCSI session (its
 * root may be on it). */
bool iscsi_pack_wanted(const struct build_opts *o);
/* iscsi_tcp, libiscsi, scsi_transport_iscsi, sd_mod, and iscsi_ibft when
 * the kernel has it (rd.iscsi.firmware). */
int iscsi_pack_modules(struct kmods *k);
/* iscsistart at /sbin/iscsistart with its libraries, and the host's
 * /etc/iscsi/initiatorname.iscsi when there is one. Returns 0 or -errno
 * (reported). Does nothing unless iscsi_pack_wanted(o). */
int iscsi_pack(const struct build_opts *o, struct image *img);
/* Whether a command line carries CHAP secrets (rd.iscsi.password=,
 * rd.iscsi.in.password=, or USER:PASSWORD@ in an iscsi: root path). */
bool iscsi_pack_has_secrets(const char *cmdline);
/* cmdline with each secret replaced by "*" (for build.conf, which anyone
 * listing the image sees). */
void iscsi_pack_redact(const char *cmdline, char *out, size_t size);

#endif
