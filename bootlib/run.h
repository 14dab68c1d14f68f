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

/* The child's side of a program that runs on its own (a boot script, a
 * keyscript): its own process group (a bound then ends what it starts
 * too), the signals as a new program expects them, and exec; an exec that
 * fails writes its errno on errfd (close-on-exec: the parent reads EOF
 * when the exec worked) and exits 127. */
void run_child_exec(char *const argv[], char *const envp[], int errfd)
	__attribute__((noreturn));

#endif
