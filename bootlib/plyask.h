/* plyask: a secret asked through plymouth, beside the consoles' prompt.
 *
 * `plymouth ask-for-password --prompt=TEXT` runs as a child whose standard
 * output is a pipe: plymouthd shows the prompt on its splash (bullets for
 * the keys typed on its keyboard), and the child writes the answer and
 * ends. The console prompt (bootlib/console.c) waits on that pipe beside
 * its consoles: the first answer wins, and a child whose prompt was
 * answered elsewhere is stopped. The answer never leaves memory but to
 * the caller. */
#ifndef LIFEBOAT_BOOTLIB_PLYASK_H
#define LIFEBOAT_BOOTLIB_PLYASK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* plymouth's prompt is one line: this much of what the consoles show. */
#define PLYASK_PROMPT_MAX 256

struct plyask {
	pid_t pid;   /* the client; 0: none */
	int fd;      /* its standard output; -1: none */
};

/* The one-line prompt for plymouth from what the consoles were shown
 * (said: "\nlifeboat: /dev/vda is encrypted (...).\nPassphrase (try 1 of
 * 3): "): runs of white space and control characters become one space, the
 * ends are trimmed, and "lifeboat: " at the start of a line is dropped
 * (plymouth shows only the prompt). out is always terminated. */
void plyask_prompt(const char *said, char *out, size_t size);
/* The answer from what the client wrote (got bytes in buf): a trailing
 * newline is dropped. Returns the length. */
size_t plyask_answer_len(const char *buf, size_t got);

/* Start the client with prompt (plyask_prompt's). Returns 0 with a->fd
 * open, or -errno (a->pid 0, a->fd -1). */
int plyask_start(struct plyask *a, const char *prompt);
/* The pipe became readable: read the answer to the end (the client writes
 * it and ends) into buf, terminated, and reap the client. Returns the
 * answer's length, or -ECANCELED when the client ended without one
 * (plymouthd quit, or the prompt was withdrawn). */
int plyask_read(struct plyask *a, char *buf, size_t size);
/* Stop a client still asking (another seat answered) and reap it. */
void plyask_cancel(struct plyask *a);

#endif
