/* savedir: save the dump into a directory of a mounted filesystem, with
 * atomic names: each file is written as NAME.incomplete, synced, and
 * renamed to NAME only when complete, so a file named vmcore is whole. */
#ifndef LIFEBOAT_KDUMP_SAVEDIR_H
#define LIFEBOAT_KDUMP_SAVEDIR_H

#include "kdump/capture.h"

/* Save into a directory made fresh for this dump, MNT/SUBDIR/cap->name
 * (or cap->name-N when that name is taken; SUBDIR is "" or "/DIR", made
 * if missing): vmcore, vmcore.elf as the formats say, and
 * vmcore-dmesg.txt, each 0600 in a 0700 directory (kdump/dumpdir.h: never
 * into a directory another user could change). cap->name gets the name
 * used. -ENOSPC when the filesystem has less room than the dump may take
 * (nothing is written then). Reports what failed (naming where) and
 * returns -errno. */
int savedir_save(struct capture *cap, const char *mnt, const char *subdir, const char *where);

#endif
