/* libcopy: a library this (dynamic) process can load, copied with the
 * loaded objects it needs into another root, for a static program there to
 * dlopen(): the way out is static, yet --rescue-auth's password is checked
 * with libcrypt (bootlib/auth.c), which needs libc.so.6 and the loader. */
#ifndef LIFEBOAT_SHUTDOWN_LIBCOPY_H
#define LIFEBOAT_SHUTDOWN_LIBCOPY_H

/* How many objects one library may need, itself included. */
#define LIBCOPY_MAX 8

/* dlopen(soname) here, then copy it and, transitively, each object its
 * DT_NEEDED names (as loaded here: libc.so.6, the loader) into the
 * directory root + the directory soname was found in, each under its own
 * name there, where a static glibc program's dlopen() looks for them.
 * Returns how many were copied, or -errno (-ENOENT: soname cannot be
 * loaded here). */
int libcopy_needed(const char *soname, const char *root);

#endif
