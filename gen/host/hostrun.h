/* hostrun: run a tool of the build host and keep what it writes.
 *
 * For build-time work only (loadkeys, ckbcomp, clevis --list, dropbearkey),
 * never for anything of the image: the image's programs are read as ELF,
 * not executed (the image may be for another architecture).
 */
#ifndef LIFEBOAT_HOSTRUN_H
#define LIFEBOAT_HOSTRUN_H

#include <stdbool.h>
#include <stddef.h>

/* What a tool is given and what of it is kept. */
struct hostrun_io {
	const void *in;        /* its standard input, in_len bytes; NULL: /dev/null */
	size_t in_len;
	size_t max;            /* its output is kept up to max bytes */
	bool with_stderr;      /* its standard error is kept with its output (for a
				* message); else discarded */
	bool stderr_shown;     /* its standard error goes to ours, for the user to
				* read (a hooks.d executable's messages) */
	char *const *env;      /* its whole environment ("NAME=VALUE", NULL-terminated);
				* NULL: ours */
	unsigned int timeout_ms;  /* 0: none; else it and what it started (its process
				   * group) are killed when it has not ended by then */
};

/* Run argv[0] (searched in PATH) as io says; its output goes to *out
 * (malloc'd, NUL-terminated after *out_len) whatever its exit status.
 * Returns that status (0 to 255), -ENOENT when it could not be run,
 * -EINTR when a signal ended it, -ETIMEDOUT when io->timeout_ms ended it
 * (then *out is not set), -EFBIG past io->max, or another -errno
 * (then *out is not set). */
int hostrun_run(const char *const argv[], const struct hostrun_io *io, char **out,
		size_t *out_len);
/* For a tool whose output is wanted only when it succeeds: its standard
 * error discarded, and 0 when it exited with status 0, -EIO for another
 * exit (*out is then not set), or what hostrun_run returns. */
int hostrun_capture(const char *const argv[], const void *in, size_t in_len,
		    char **out, size_t *out_len, size_t max);

#endif
