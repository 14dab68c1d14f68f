/* shell: run the image's shell on the console, with job control. */
#ifndef LIFEBOAT_RESCUE_SHELL_H
#define LIFEBOAT_RESCUE_SHELL_H

#include <stddef.h>

/* The shell of the image (busybox's sh link from lifeboat build --rescue
 * busybox, or any /bin/sh added with --add-binaries). Returns 0 with its
 * path in out, or -ENOENT. */
int shell_find(char *out, size_t size);
/* Run shell on the terminal tty in its own session with tty as its
 * controlling terminal, sane settings, PATH, PS1, HOME and TERM, in /;
 * return when it exits. Returns 0 or -errno when it could not start. */
int shell_run(const char *shell, const char *tty);

#endif
