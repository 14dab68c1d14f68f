/* libdeps: the shared libraries a binary needs, found as the dynamic loader would. */
#ifndef LIFEBOAT_LIBDEPS_H
#define LIFEBOAT_LIBDEPS_H

#include "common/strv.h"

/* Append to out the host paths of binary's program interpreter and every
 * shared library it needs, transitively (deduplicated, paths as found in the
 * search directories, not canonicalised, so /lib/x86_64-linux-gnu/libc.so.6
 * stays that path). sysroot is "" or "/" for the host, or a directory that
 * holds another system's tree (paths are then looked up below it and returned
 * without the prefix). Nothing is executed: the files are read (elf.h), so
 * binaries for another machine work. A file that is not ELF (a script) adds
 * nothing and returns 0. Reports a missing library with gen_error() naming
 * the binary and the library and returns -ENOENT (after reporting every
 * missing one); an unreadable binary or interpreter is reported too.
 * Returns 0 or -errno. */
int libdeps_resolve(const char *sysroot, const char *binary, struct strv *out);
/* libdeps_resolve() as if binary also needed soname: the library its
 * dlopen(soname) would load, found the same way (so for the binary's
 * machine, not by a fixed path), with the libraries that one needs. */
int libdeps_resolve_dlopen(const char *sysroot, const char *binary, const char *soname,
			   struct strv *out);

#endif
