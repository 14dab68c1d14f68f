/* failure: the diagnosis printed when the boot cannot go on. */
#ifndef LIFEBOAT_FAILURE_H
#define LIFEBOAT_FAILURE_H

#include "bootlib/devspec.h"

/* Print the block devices present with their TYPE, LABEL, UUID, PARTUUID,
 * so the user can see what root= could have named. */
void failure_list_devices(void);
/* The boot cannot continue: print what failed and what to try, then power
 * off after a few seconds (until the rescue shell takes this over). */
void failure_poweroff(const char *what) __attribute__((noreturn));

#endif
