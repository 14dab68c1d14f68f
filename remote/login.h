/* login: what a login over SSH gets (lifeboat-login is root's shell). */
#ifndef LIFEBOAT_REMOTE_LOGIN_H
#define LIFEBOAT_REMOTE_LOGIN_H

#include <stdbool.h>

enum login_kind {
	LOGIN_UNLOCK,      /* the waiting passphrase prompt (remote/unlock.h) */
	LOGIN_SHELL,       /* the report and the shell gate (bootlib/shell.h) */
	LOGIN_NO_PROMPT,   /* unlock asked while the boot is stopped in the rescue */
};

/* The commands that mean "the prompt": ours and Debian's name for it. */
bool login_is_unlock(const char *command);
/* command: what the client asked to run (NULL: an interactive login);
 * prompt_waits: whether a passphrase prompt takes guests now; stopped:
 * whether the boot stopped for a shell on the console (a failure,
 * rd.break), so that no prompt comes until that shell is left. */
enum login_kind login_what(const char *command, bool prompt_waits, bool stopped);
/* The shell's arguments dropbear gives: "-c COMMAND" or none. Sets
 * *command (NULL: interactive). Returns 0, or -EINVAL for anything else. */
int login_args(int argc, char *const argv[], const char **command);

#endif
