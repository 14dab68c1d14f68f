/* proctree: the processes under one process, read from /proc. */
#ifndef LIFEBOAT_REMOTE_PROCTREE_H
#define LIFEBOAT_REMOTE_PROCTREE_H

#include <stddef.h>
#include <sys/types.h>

/* Every descendant of root (children, their children, ...) into out, at
 * most max. Returns how many, or -errno when /proc cannot be read. */
int proctree_descendants(pid_t root, pid_t *out, size_t max);

#endif
