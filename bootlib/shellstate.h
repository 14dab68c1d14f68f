/* shellstate: what the init's shell gate tells a remote login.
 *
 * A login over SSH (lifeboat-login, remote/) runs in its own process, not
 * in PID 1, yet must pass the same gate as the console's shell: PID 1
 * publishes rd.shell, why a shell would open now (a failure, rd.break,
 * or nothing yet) and the console shell's process, one line in /run
 * (mode 0600): "shell=1 cause=failure pid=123". */
#ifndef LIFEBOAT_BOOTLIB_SHELLSTATE_H
#define LIFEBOAT_BOOTLIB_SHELLSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "bootlib/shell.h"

#define SHELL_STATE_PATH "/run/lifeboat/shell.state"

struct shell_state {
	bool shell;                 /* rd.shell */
	enum shell_cause cause;     /* SHELL_FOR_REMOTE: the boot goes on, nothing failed */
	pid_t console_pid;          /* the console's shell (its session), 0: none */
};

/* Whether st says a shell is open on the console for a failure or
 * rd.break: the boot waits for it, and a remote login may end it. */
bool shell_state_console_open(const struct shell_state *st);
/* "failure", "action", "break", "remote". */
const char *shell_state_cause_name(enum shell_cause cause);
/* Format st as the one line of the file into buf. */
void shell_state_format(const struct shell_state *st, char *buf, size_t size);
/* Parse that line. Returns 0, or -EINVAL for a malformed one (the login
 * then opens nothing). */
int shell_state_parse(const char *text, struct shell_state *st);
/* Write st to path (a temporary file renamed over it). Returns 0 or -errno. */
int shell_state_write(const char *path, const struct shell_state *st);
/* Read path into st: 0, -ENOENT (no SSH server started it), -EINVAL, -errno. */
int shell_state_read(const char *path, struct shell_state *st);

#endif
