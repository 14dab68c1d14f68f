/* luksname: the real root's names for the LUKS containers the boot opened
 * under its own name, luks-UUID.
 *
 * A generic image has no crypttab, so with no rd.luks.name= a container
 * opens as /dev/mapper/luks-UUID (dracut's name). The real root's crypttab
 * names it otherwise (the installer writes "md0_crypt UUID=... none
 * luks,discard"), and its systemd-cryptsetup@md0_crypt finds no mapping of
 * that name: it asks for the passphrase again, and its open fails on the
 * busy device. Once the root is mounted its crypttab can be read: each
 * mapping the boot named luks-UUID is renamed to the name the root's
 * crypttab gives that UUID, before the udev database is left and the root
 * entered, so the root's systemd finds the volume active under its own
 * name. A name given by rd.luks.name= or the image's crypttab is kept. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSNAME_H
#define LIFEBOAT_BLOCKSTACK_LUKSNAME_H

#include <stdbool.h>
#include <stddef.h>

/* The LUKS UUID's 32 hex digits (lower case) of a mapping whose
 * device-mapper uuid is cryptsetup's "CRYPT-LUKS<n>-<hex>-<name>"; false for
 * any other uuid. */
bool luksname_dm_uuid_hex(const char *dm_uuid, char hex[33]);
/* Whether name is the boot's own name for the container of hex: "luks-"
 * and its UUID (any case, with or without separators). */
bool luksname_is_default(const char *name, const char hex[33]);
/* The name the crypttab text gives the container of hex (a line whose
 * source is UUID=X or /dev/disk/by-uuid/X) into name; false when no line
 * does. */
bool luksname_from_crypttab(const char *text, const char hex[33], char *name, size_t size);
/* Rename every mapping named luks-UUID to what sysroot's /etc/crypttab
 * calls its container, its /dev/mapper node with it. Each rename is said;
 * a failed one is said with what to give instead, and the others go on.
 * Returns how many were renamed. */
int luksname_follow_root(const char *sysroot);

#endif
