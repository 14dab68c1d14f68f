/* shellsetup: what the rescue shell finds beside busybox, made on its first
 * use (bootlib/shell.c), not on every boot: lifeboat's modprobe under its
 * names (common/layout.h, LAYOUT_MODPROBE), the shells' rc file that puts
 * it ahead of busybox's applet, and /etc/filesystems.
 *
 * Filesystems are loaded on demand: with /sbin/modprobe in place, the
 * kernel itself runs it for the module of a type mount(2) names that it
 * does not have (its request_module for "fs-TYPE"). `mount -t TYPE` then
 * works for every type the image has a module for, and so does a mount
 * without -t: busybox's mount tries each type /etc/filesystems lists.
 * Loading the types blkid sees on the devices when the shell opens would
 * miss the device the person opens in the shell (a LUKS container, an LVM
 * volume), and loading in mount(2) cannot race the mount. */
#ifndef LIFEBOAT_BOOTLIB_SHELLSETUP_H
#define LIFEBOAT_BOOTLIB_SHELLSETUP_H

#include "common/modtab.h"
#include "common/strv.h"

#define SHELLSETUP_FILESYSTEMS "/etc/filesystems"
/* The shells' startup file ($ENV, which busybox's sh reads when it is
 * interactive): busybox's sh runs its own applet of a name before it looks
 * in PATH, so the rc makes modprobe a function that runs LAYOUT_MODPROBE. */
#define SHELLSETUP_RC "/etc/lifeboat/shrc"

/* The filesystem types the table has a module for (its "fs-TYPE"
 * aliases) that live on a block device, each once: ext4, xfs and btrfs
 * first (busybox's mount tries them in order, and a wrong guess loads a
 * module for nothing), then the others in the table's order. */
int shellsetup_fstypes(const struct modtab *t, struct strv *out);

/* Make the links, the rc and /etc/filesystems; what exists already stays (an SSH
 * login and the console may both get here). Returns 0 or the first
 * -errno. */
int shellsetup_install(void);

#endif
