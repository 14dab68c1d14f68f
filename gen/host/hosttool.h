/* hosttool: run a tool of the build host and collect what it prints.
 *
 * The generator never runs what it packs (the image may be for another
 * architecture); this is for the build host's own tools, such as
 * dropbearkey making the image's SSH host key. */
#ifndef LIFEBOAT_GEN_HOST_HOSTTOOL_H
#define LIFEBOAT_GEN_HOST_HOSTTOOL_H

#include <stddef.h>

/* Run argv[0] (a path) with argv, stdin from /dev/null; its stdout and
 * stderr into out (terminated, cut at size). Returns its exit status
 * (0..255), or -errno when it could not run or was killed. */
int hosttool_run(char *const argv[], char *out, size_t size);

#endif
