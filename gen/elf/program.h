/* program: a program put into the image with what it needs to run. */
#ifndef LIFEBOAT_PROGRAM_H
#define LIFEBOAT_PROGRAM_H

#include "gen/image/image.h"

/* What runs path: 0 for an ELF program, 1 for a "#!" script (the
 * interpreter its first line names into interp), -ENOEXEC for neither, or
 * -errno when it cannot be read. */
int program_kind(const char *path, char *interp, size_t size);
/* The interpreter and shared libraries binary needs (gen/elf/libdeps.h), at
 * their host paths, tagged as libraries. Returns 0 or -errno (reported). */
int program_add_libraries(struct image *img, const char *binary);
/* The library binary would dlopen() by soname, with what that library
 * needs, found as its loader would (gen/elf/libdeps.h); tagged as libraries.
 * A missing library is reported naming binary and soname. */
int program_add_dlopen(struct image *img, const char *binary, const char *soname);
/* binary and its libraries: binary at dst with mode 0755, or with dst NULL
 * at its host path (its symlinks recreated). */
int program_add(struct image *img, const char *binary, const char *dst);
/* binary's libraries, and binary itself xz-compressed at dst (mode 0644),
 * for the init to unpack when it is needed (bootlib/unxz.h): a program
 * most boots never run costs the kernel's unpack nothing but its xz bytes.
 * Errors are reported. */
int program_add_packed(struct image *img, const char *binary, const char *dst);

/* The path of one of lifeboat's own programs (lifeboat-init,
 * lifeboat-login, ...): beside the generator (the build tree) or in
 * ../lib/lifeboat/ from it. Returns 0 or -ENOENT, reported by
 * program_find_own, not by the quiet one (for what may be missing). */
int program_find_own(const char *name, char *out, size_t size);
int program_find_own_quiet(const char *name, char *out, size_t size);

#endif
