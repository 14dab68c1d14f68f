/* run: run a block-stack tool (lvm, mdadm, cryptsetup) and collect what it says. */
#ifndef LIFEBOAT_BLOCKSTACK_RUN_H
#define LIFEBOAT_BLOCKSTACK_RUN_H

#include <stddef.h>

/* Run argv[0] (a path) with argv, feeding input (input_len bytes, may be
 * NULL) on its stdin and collecting stdout and stderr into out (always
 * terminated, truncated to size). Returns the exit status (0..255), or
 * -errno when it could not run or was killed. */
int run_tool(char *const argv[], const void *input, size_t input_len, char *out, size_t size);

#endif
