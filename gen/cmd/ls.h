/* ls: `lifeboat ls IMAGE`, list what an initramfs holds, like lsinitramfs -l. */
#ifndef LIFEBOAT_LS_H
#define LIFEBOAT_LS_H

#include <stdio.h>

#include "gen/archive/archive.h"

/* argv[0] is the command name ("ls"), argv[1] the image. Prints one line per
 * entry (mode, links, size, path, "-> target" or "=> first link"), then the
 * embedded /etc/lifeboat/build.conf if there is one, then the kernel modules.
 * What comes from the image is escaped (common/termescape.h) and bounded: a
 * symlink target or build.conf too long to be genuine is cut, with a note.
 * Returns the exit status: 0, or 1 after reporting why. */
int ls_main(int argc, char **argv);

/* The same listing of an image already in memory, written to out; the
 * reader's error is returned and described in *why, not printed. */
int ls_buffer(FILE *out, const void *buf, size_t len, struct archive_error *why);

#endif
