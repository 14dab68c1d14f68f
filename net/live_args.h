/* live_args: the words of a live root (root=live:URL): rd.live.sha256=,
 * rd.live.unverified, rd.live.overlay.size=. docs/network.md. */
#ifndef LIFEBOAT_NET_LIVE_ARGS_H
#define LIFEBOAT_NET_LIVE_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"

struct live_args {
	/* As written: checked when used, so that a mistyped hash refuses
	 * the image instead of leaving it unchecked. */
	char sha256[CMDLINE_VALUE_MAX];
	bool unverified;                       /* rd.live.unverified: boot an unchecked image */
	char overlay_size[CMDLINE_VALUE_MAX];  /* tmpfs's size= of the writable layer */
};

void live_args_init(struct live_args *a);
struct cmdline_owner live_args_cmdline(struct live_args *a);
/* rd.live.overlay.size is a size tmpfs takes: digits, then maybe one of
 * k, m, g or %, and no other mount option. */
bool live_args_size_ok(const char *size);

#endif
