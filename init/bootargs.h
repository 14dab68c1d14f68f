/* bootargs: gather the command line from the image and from the kernel. */
#ifndef LIFEBOAT_BOOTARGS_H
#define LIFEBOAT_BOOTARGS_H

#include "bootlib/cmdline.h"
#include "common/layout.h"

#define CMDLINE_D LAYOUT_CMDLINE_DIR

/* Apply /etc/cmdline.d/STAR.conf (built in with lifeboat build --cmdline), in
 * name order, then /proc/cmdline, so the kernel's command line wins.
 * Returns the first parse error (already logged) or 0. */
int bootargs_load(struct boot_args *args);
/* The kernel hands the parameters it does not know and that hold no dot
 * (netroot=...) to init's environment, which the real init inherits: those
 * holding a secret (common/redact.h) are removed. bootargs_load does it. */
void bootargs_environ_clean(void);

#endif
