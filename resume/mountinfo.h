/* mountinfo: whether a filesystem on a block device is mounted already. */
#ifndef LIFEBOAT_MOUNTINFO_H
#define LIFEBOAT_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

/* One line of /proc/self/mountinfo (proc(5)): true when the mount's source
 * is a /dev/ path (a block device, for filesystems in the initramfs world)
 * or its device number has a non-zero major; the mount point and source are
 * copied out for the message. */
bool mountinfo_line_is_block(const char *line, char *where, size_t where_size,
			     char *source, size_t source_size);
/* Scan the given mountinfo file; 1 with the first block mount described in
 * what, 0 when there is none, -errno when it cannot be read. */
int mountinfo_find_block(const char *path, char *what, size_t size);

#endif
