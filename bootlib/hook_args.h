/* hook_args: rd.hook.timeout=SECONDS, how long each of the image's boot
 * scripts may run (bootlib/hookrun.h, docs/extending.md). */
#ifndef LIFEBOAT_HOOK_ARGS_H
#define LIFEBOAT_HOOK_ARGS_H

#include "bootlib/cmdline.h"

/* Long enough for a script that waits for a device or the network, short
 * enough that a hung one ends in the rescue before someone gives up. */
#define HOOK_TIMEOUT_DEFAULT_SEC 60

struct hook_args {
	unsigned int timeout_sec;   /* 0: no bound */
};

void hook_args_init(struct hook_args *a);
struct cmdline_owner hook_args_cmdline(struct hook_args *a);

#endif
