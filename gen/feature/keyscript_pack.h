/* keyscript_pack: the keyscripts the image's crypttab names (keyscript=),
 * with what they need to run in the image.
 *
 * The crypttab is the image's: a host-only image's (the host's lines for
 * the stack, gen/host/stackconf.c), or the one --add-files puts at
 * /etc/crypttab. For each keyscript: the program at its host path (an ELF
 * with its libraries; a #! script with its interpreter, /bin/sh being the
 * rescue's busybox), /lib/cryptsetup/askpass when the host has it, and for
 * Debian's own the programs and modules common/keyscripts.c lists. A
 * keyscript that cannot be packed fails the build, naming it and the
 * crypttab line. Part of the block-stack feature (gen/feature/blockstacks.c). */
#ifndef LIFEBOAT_KEYSCRIPT_PACK_H
#define LIFEBOAT_KEYSCRIPT_PACK_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/kmod/kmods.h"
#include "gen/opts/build_ctx.h"

/* Whether the --add-files item puts a file at /etc/crypttab
 * (SRC:/etc/crypttab, or /etc/crypttab alone: the host's at its own
 * path), and then its source into src. */
bool keyscript_pack_crypttab_src(const char *item, char *src, size_t size);

/* The modules the keyscripts need (passdev's filesystems), optional. */
int keyscript_pack_modules(const struct build_ctx *c, struct kmods *k);
/* The keyscripts and what they need. Returns 0 or -errno (reported). */
int keyscript_pack_files(const struct build_ctx *c);

#endif
