/* rootpath: look up paths inside a system tree (a sysroot) as if it were "/". */
#ifndef LIFEBOAT_ROOTPATH_H
#define LIFEBOAT_ROOTPATH_H

#include <stdbool.h>
#include <stddef.h>

/* root "", "/" or NULL is the host itself. */
bool rootpath_is_host(const char *root);
/* Resolve path (absolute, inside root) the way the kernel would if root were
 * "/": every symlink followed, an absolute target taken relative to root,
 * ".." never leaving root. Writes the resulting path, without the root
 * prefix, to out. Returns 0 or -errno (-ENOENT, -ELOOP, -ENAMETOOLONG...). */
int rootpath_resolve(const char *root, const char *path, char *out, size_t size);
/* Prefix a path inside root with root, for the host's system calls. */
int rootpath_host(const char *root, const char *path, char *out, size_t size);
/* open(2) of path inside root, symlinks resolved inside root. Returns the fd
 * or -errno. */
int rootpath_open(const char *root, const char *path, int flags);

#endif
