/* scriptout: run a program on the console whose standard output is a
 * secret (a crypttab keyscript's key), serving kernel events meanwhile.
 *
 * The program runs in its own process group (a bound ends what it starts
 * too), with the signals as a new program expects them, the console as
 * its stdin and stderr (it may prompt there) and a pipe as its stdout,
 * read into the caller's buffer, which the caller locks and wipes; what
 * does not fit is read and dropped, so the program never blocks on it.
 * The init's event loop runs while it waits (bootlib/evloop.h).
 */
#ifndef LIFEBOAT_BOOTLIB_SCRIPTOUT_H
#define LIFEBOAT_BOOTLIB_SCRIPTOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scriptout {
	char *buf;          /* the caller's */
	size_t size;
	size_t len;         /* bytes kept in buf */
	bool overflow;      /* it wrote more than size bytes */
	int status;         /* waitpid's, when it ended */
};

/* Run argv[0] (a path) with argv and envp until it ends, or until
 * deadline_ms (CLOCK_MONOTONIC, bootlib/clock.h; 0: none) passes, when it
 * and its process group are killed. Returns 0 when it ended by itself
 * (out->status says how), -ETIMEDOUT, or -errno when it could not start
 * (its exec's errno: -ENOENT for a missing program or #! interpreter). */
int scriptout_run(char *const argv[], char *const envp[], uint64_t deadline_ms,
		  struct scriptout *out);

#endif
