/* mountopts: split a mount option string into mount(2) flags and fs data. */
#ifndef LIFEBOAT_MOUNTOPTS_H
#define LIFEBOAT_MOUNTOPTS_H

#include <stddef.h>

/* "ro,noatime,data=journal" → flags |= MS_RDONLY|MS_NOATIME, data
 * "data=journal". Words that are flags are removed from data; others pass
 * through to the filesystem as they are. Returns 0 or -ENAMETOOLONG when
 * data does not fit. */
int mountopts_parse(const char *opts, unsigned long *flags, char *data, size_t size);

#endif
