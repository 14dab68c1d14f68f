/* ldsearch: the directories the dynamic loader searches, per ELF machine. */
#ifndef LIFEBOAT_LDSEARCH_H
#define LIFEBOAT_LDSEARCH_H

#include "common/strv.h"
#include "gen/elf/elf.h"

/* Append to dirs what one DT_RPATH/DT_RUNPATH entry of obj names: $ORIGIN
 * (or ${ORIGIN}) becomes origin, the directory obj was found in; $LIB and
 * $PLATFORM, which depend on how the target's libc was built, become each
 * value they take on the distributions we know (lib64, lib/<multiarch
 * triplet>, lib; x86_64, i686...), so every candidate is tried. Relative
 * results are dropped: they would name the build host's working directory.
 * Returns 0 or -ENOMEM. */
int ldsearch_expand(const struct elf_deps *obj, const char *origin, const char *entry, struct strv *dirs);
/* Append the loader's built-in directories for obj's class and machine:
 * /lib64 and /usr/lib64 for 64-bit objects, /lib and /usr/lib, then the
 * Debian multiarch directories (for trees without ld.so.conf.d). */
int ldsearch_defaults(const struct elf_deps *obj, struct strv *dirs);

#endif
