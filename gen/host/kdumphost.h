/* kdumphost: the block stacks under a host-only capture image's dump
 * disks. A filesystem target the build host has (--kdump-target UUID=...
 * of a filesystem in a LUKS container, on LVM, on md) joins the host's
 * stack (gen/host/hostfacts.h), so the image opens it in the capture
 * kernel as it would the root's: the tools and modules, the container in
 * 30-stacks.conf's rd.luks.uuid=, and the TPM2 or Tang pieces its tokens
 * ask for. */
#ifndef LIFEBOAT_KDUMPHOST_H
#define LIFEBOAT_KDUMPHOST_H

#include <stddef.h>

#include "common/strv.h"
#include "gen/host/hostfacts.h"

/* The device of a filesystem target's WHERE ("LABEL=dumps" of
 * "LABEL=dumps:/var/crash"), or "" for a URL or an NFS export. */
void kdumphost_target_device(const char *where, char *dev, size_t size);
/* Add the stack under each filesystem target of targets (--kdump-target's
 * texts) that is on this host (root "": the build host). A target the
 * host does not have is left out (it may be attached later), said with
 * -v. Returns 0 or -ENOMEM. */
int kdumphost_scan(struct host_facts *h, const char *root, const struct strv *targets);

#endif
