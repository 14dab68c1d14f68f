/* liveroot: a root image fetched over HTTP(S) (root=live:URL, dracut's
 * word): the network, the image into RAM, its SHA-256 checked, then
 * mounted read-only under a tmpfs overlay at /sysroot. docs/network.md. */
#ifndef LIFEBOAT_NET_LIVEROOT_H
#define LIFEBOAT_NET_LIVEROOT_H

#include <stddef.h>

#include "net/live_args.h"
#include "net/net.h"

/* Returns 0 with the root at SYSROOT, or -errno with what failed, on which
 * URL, and what the user can do in why. An image whose hash does not
 * match is refused (-EBADMSG), and so is one over http:// that nothing on
 * the command line vouches for, unless rd.live.unverified (-EPERM). */
int liveroot_mount(const struct net_request *req, const struct live_args *live, char *why,
		   size_t why_size);

#endif
