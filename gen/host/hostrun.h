/* hostrun: run a tool of the build host and keep what it writes.
 *
 * For build-time conversions only (loadkeys, ckbcomp), never for anything
 * of the image: the image's programs are read as ELF, not executed.
 */
#ifndef LIFEBOAT_HOSTRUN_H
#define LIFEBOAT_HOSTRUN_H

#include <stddef.h>

/* Run argv[0] (searched in PATH) with in (in_len bytes; NULL: /dev/null)
 * as its standard input and its standard error discarded; its standard
 * output, up to max bytes, goes to *out (malloc'd, NUL-terminated after
 * *out_len). Returns 0 when it exited with status 0, -ENOENT when it could
 * not be run, -EFBIG past max, -EIO for another exit, or -errno. */
int hostrun_capture(const char *const argv[], const void *in, size_t in_len,
		    char **out, size_t *out_len, size_t max);

#endif
