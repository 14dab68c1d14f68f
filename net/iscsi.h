/* iscsi: a root on an iSCSI LUN: log in after the network is up, so that the
 * LUN's disk appears and mounts as a local one. docs/iscsi.md has the
 * parameters. */
#ifndef LIFEBOAT_NET_ISCSI_H
#define LIFEBOAT_NET_ISCSI_H

#include <stdbool.h>
#include <stddef.h>

#include "net/net.h"

/* Configure the network, log in to the target (bounded retries), all of it
 * within rd.timeout, and leave in root what the root device is: root= when
 * it names a filesystem, else /dev/DISK of the target's LUN once it is
 * there. Once logged in, the passwords of args->iscsi are forgotten
 * (iscsi_conf_forget). Returns 0, or -errno with what failed and what the
 * user can do in why (never a secret). */
int iscsi_root_attach(const struct net_request *args, char *root, size_t root_size,
		      char *why, size_t why_size);

#endif
