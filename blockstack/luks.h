/* luks: open a LUKS container with a passphrase typed on the console. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKS_H
#define LIFEBOAT_BLOCKSTACK_LUKS_H

#include <stddef.h>

/* Tries before the container is given up (the boot then waits for root
 * and ends in rescue, which says which device stayed locked). */
#define LUKS_TRIES 3

/* Open /dev/DEVNAME as /dev/mapper/NAME with the key bytes (a passphrase
 * or a key file's content, fed on cryptsetup's stdin, never on its command
 * line). cryptsetup's words go to out. Returns 0, -EACCES when the key is
 * refused, -EIO when cryptsetup failed otherwise, or -errno when it could
 * not run. */
int luks_open_key(const char *devname, const char *name, const void *key, size_t len,
		  char *out, size_t size);

/* Ask for the passphrase of /dev/DEVNAME (LUKS UUID uuid) on the console,
 * echo off, and open it as /dev/mapper/NAME with cryptsetup; up to
 * LUKS_TRIES times. The passphrase is wiped after each try and never
 * logged. Returns 0, -EACCES when every passphrase was refused, -EIO when
 * the console gave out, or another -errno (the reason is logged here,
 * since only this step knows the tool's words). */
int luks_unlock(const char *devname, const char *uuid, const char *name);

#endif
