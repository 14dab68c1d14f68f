/* stackconf: the block-stack configuration of host-only images (crypttab,
 * mdadm.conf, the command line that limits assembly to the stack), made
 * from the host's files and the host-only scan. */
#ifndef LIFEBOAT_STACKCONF_H
#define LIFEBOAT_STACKCONF_H

#include <stdbool.h>

#include "common/crypttab.h"
#include "common/luksopts.h"
#include "common/strv.h"
#include "gen/host/hostonly.h"

/* Which block device (e.g. "sda3") a crypttab source such as PARTUUID=...
 * or /dev/disk/by-id/... stands for on the host, into dev; false when
 * unknown. UUID= sources are compared without it. */
typedef bool (*source_resolver)(const char *source, char *dev, size_t size);

/* The image's /etc/crypttab into *out (malloc'd, may be ""): for each of
 * the stack's containers the host's crypttab line whose source names it,
 * rewritten as "NAME UUID=<uuid> KEYFILE OPTIONS" (the init matches by
 * UUID); else, when its mapping has a name of the host's own, a line
 * with that name. KEYFILE is the host's when its options name a keyscript
 * (the field is the script's argument) or when image_files has that
 * path (the user added the key file), else "none"; such a key file left
 * out is named in *left_out (one per line, "" when none; malloc'd).
 * host_text may be NULL (no crypttab). Returns 0 or -ENOMEM. */
int stackconf_crypttab(const struct host_scan *h, const char *host_text, source_resolver resolve,
		       const struct strv *image_files, char **out, char **left_out);

/* Called for a line of the image's crypttab whose options the init will
 * not all act on (o->notes says which, and why). */
typedef void (*crypttab_note_fn)(void *ctx, const char *name, const struct luks_opts *o);

/* Called for each line of a crypttab text, with its options parsed; a
 * value other than 0 ends the walk and is returned. */
typedef int (*crypttab_line_fn)(void *ctx, const struct crypttab_entry *e,
				const struct luks_opts *o);
/* Walk the lines of text (NULL: none), skipping blanks, comments and
 * malformed lines. Returns 0 or what fn returned. */
int stackconf_crypttab_each(const char *text, crypttab_line_fn fn, void *ctx);

/* Check the options of each line of the image's crypttab text, calling
 * note for those with notes. Returns -ENOTSUP when a line has header=: a
 * container with a detached LUKS header has none on its device, where the
 * init looks for it, so the image could not open it; else 0. */
int stackconf_crypttab_check(const char *text, crypttab_note_fn note, void *ctx);

/* The image's /etc/mdadm/mdadm.conf into *out (malloc'd): for each of the
 * stack's arrays, the host's ARRAY line with its UUID (with its
 * continuation lines), else "ARRAY /dev/mdX UUID=<mdadm's spelling>"
 * made from uuids[i], the array UUID libblkid read on h->md[i].member
 * (NULL or "" when unknown: no line). host_text may be NULL. Returns 0,
 * or -ENOMEM. */
int stackconf_mdadm(const struct host_scan *h, const char *host_text, const char *const uuids[],
		    char **out);

/* The image's built-in command line for the stack into *out (malloc'd,
 * "" when the stack is empty): rd.luks.uuid= for each container,
 * rd.md.uuid= for each array whose UUID is known (uuids as for
 * stackconf_mdadm) and rd.lvm.vg= for each volume group, so that the image
 * opens only what the host's root and resume device sit on, not every
 * container, array or volume group that is attached at boot (as dracut's
 * host-only command line). Returns 0 or -ENOMEM. */
int stackconf_cmdline(const struct host_scan *h, const char *const uuids[], char **out);

#endif
