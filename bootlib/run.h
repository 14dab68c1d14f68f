/* run: run a block-stack tool (lvm, mdadm, cryptsetup) and collect what it says. */
#ifndef LIFEBOAT_BLOCKSTACK_RUN_H
#define LIFEBOAT_BLOCKSTACK_RUN_H

#include <stddef.h>

/* Run argv[0] (a path) with argv, feeding input (input_len bytes, may be
 * NULL) on its stdin and collecting stdout and stderr into out (always
 * terminated, truncated to size). Returns the exit status (0..255), or
 * -errno when it could not run or was killed. */
int run_tool(char *const argv[], const void *input, size_t input_len, char *out, size_t size);
/* run_tool, with env's "NAME=VALUE" words (NULL-terminated; NULL: none)
 * added to the tool's environment, and bounded: a tool whose output has
 * not ended timeout_ms after the start (-1: never) is killed, and
 * -ETIMEDOUT returned (a TPM that does not answer must not hang the
 * boot). */
int run_tool_bounded(char *const argv[], char *const env[], const void *input, size_t input_len,
		     char *out, size_t size, int timeout_ms);

#endif
