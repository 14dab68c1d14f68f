/* fsck_args: the words of the check before mount (fsck/). Skipped by
 * rd.fsck=0, fastboot, rd.skipfsck (dracut) and fsck.mode=skip (systemd);
 * forcefsck and fsck.mode=force check a filesystem that says it is clean too. */
#ifndef LIFEBOAT_FSCK_ARGS_H
#define LIFEBOAT_FSCK_ARGS_H

#include "bootlib/cmdline.h"

enum fsck_mode { FSCK_MODE_SKIP, FSCK_MODE_AUTO, FSCK_MODE_FORCE };

/* mode starts as FSCK_MODE_AUTO. */
struct cmdline_owner fsck_args_cmdline(enum fsck_mode *mode);

#endif
