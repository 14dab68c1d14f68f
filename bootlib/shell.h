/* shell: the one way to a shell on the console, whoever asks for it.
 *
 * The rescue (rescue/), rd.break and kdump's actions (kdump/capture.c) all
 * come here, and so must anything later (a remote login): the gate applies
 * rd.shell=0 and --rescue-auth's root password in one place, so no path can
 * skip them. docs/rescue.md, "Access control". */
#ifndef LIFEBOAT_BOOTLIB_SHELL_H
#define LIFEBOAT_BOOTLIB_SHELL_H

#include "bootlib/rescue_args.h"

/* Why a shell is asked for. rd.shell=0 refuses every shell but the one the
 * command line itself asks for by name (rd.break): whoever can type
 * rd.break can as well delete rd.shell=0, so refusing it would protect
 * nothing; the password is what keeps the shell closed. */
enum shell_cause {
	SHELL_FOR_FAILURE,   /* a step failed: the rescue, kdump's failure_action */
	SHELL_FOR_ACTION,    /* the image's configuration: kdump's action=shell */
	SHELL_FOR_BREAK,     /* rd.break=STAGE */
	SHELL_FOR_REMOTE,    /* a login over SSH while the boot goes on (remote/) */
};

enum shell_verdict {
	SHELL_OPEN,               /* the image has no password: open */
	SHELL_ASK_PASSWORD,       /* --rescue-auth: the root password first */
	SHELL_REFUSED_CMDLINE,    /* rd.shell=0 */
	SHELL_REFUSED_AUTH_FILE,  /* the password file is there but unusable: closed */
};

struct shell_request {
	enum shell_cause cause;
	/* Printed on the console once the shell is allowed and there is one,
	 * before the password is asked; NULL: nothing. */
	const char *announce;
	/* Run on the terminal fd when the image has no shell or it would not
	 * start (the rescue's built-in prompt); NULL: there is none. */
	int (*fallback)(int fd);
};

/* The decision alone: rd.shell from args, the cause, and what auth_load()
 * said about the image's password file (0: a hash, -ENOENT: no password,
 * anything else: unusable, which fails closed). */
enum shell_verdict shell_decide(const struct rescue_args *args, enum shell_cause cause,
				int auth_loaded);

/* The shell of the image (busybox's sh link from lifeboat build --rescue
 * busybox, or any /bin/sh added with --add-binaries) into out, or -ENOENT. */
int shell_find(char *out, size_t size);

/* Make #!/bin/sh of the image's scripts (boot scripts, crypttab keyscripts)
 * the image's shell: busybox's, unpacked once, whose links are in /usr/bin. */
void shell_for_scripts(void);

/* Open a shell as req asks: decide, announce, ask the password on the
 * console's terminal when the image has one, then run the image's shell
 * there (its own session, job control) or req's fallback. Returns 0 when
 * the person left it (or nobody can type: no terminal), -EPERM when
 * rd.shell=0 refused it, -EACCES when the password was refused or cannot
 * be checked (the reason printed), -ENOENT when the image has no shell and
 * req no fallback. Nothing else in the init starts a shell. */
int shell_enter(const struct rescue_args *args, const struct shell_request *req);

/* For a login over SSH (remote/): from now on the gate publishes its
 * facts (rd.shell, why a shell is open on the console, that shell's
 * process) in /run (bootlib/shellstate.h), where the login reads them. */
void shell_publish(const struct rescue_args *args);
/* In the login's own process: the same gate for the session's terminal
 * (stdin): the published rd.shell and cause, --rescue-auth's password
 * asked on stdin, then the image's shell, interactive or with sh -c
 * command (NULL: interactive). *cause gets the published cause. Returns
 * the shell's exit status (0..255), -EPERM (rd.shell=0), -EACCES (the
 * password, or a password file that is unusable), -ENOENT (no shell in
 * the image, or nothing published), or -errno; the reason is printed
 * on stderr. */
int shell_enter_remote(const char *command, enum shell_cause *cause);
/* The remote login left its shell after a failure or rd.break: end the
 * console's shell too, so that the boot goes on (retries) as if the
 * console's person had typed exit. Returns 0, or -ESRCH when none runs. */
int shell_end_console(void);

#endif
