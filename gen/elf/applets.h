/* applets: the applet names a busybox binary carries, read without running it. */
#ifndef LIFEBOAT_APPLETS_H
#define LIFEBOAT_APPLETS_H

#include <stddef.h>

#include "common/strv.h"

/* Busybox keeps its applet names as one sorted run of NUL-terminated
 * strings that starts "[\0[[\0" (the test applets sort first). Find the
 * longest such run in buf and append its names to out, in order. The
 * architecture does not matter: the names are plain bytes in .rodata.
 * Returns the number of names, -ENOENT when no run is found, -ENOMEM. */
int applets_parse(const void *buf, size_t len, struct strv *out);
/* applets_parse() on a file. -errno when it cannot be read. */
int applets_read_file(const char *path, struct strv *out);

#endif
