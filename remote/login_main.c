/* lifeboat-login: root's shell in an image built with --ssh.
 *
 * dropbear runs it for every login, as "lifeboat-login" (interactive) or
 * "lifeboat-login -c COMMAND" (ssh HOST COMMAND, or an authorized_keys
 * command=). A login while a passphrase prompt waits, or one that asks
 * for "unlock", gets that prompt; any other gets the diagnosis and the
 * init's shell gate (rd.shell, --rescue-auth), then the image's shell.
 * Leaving an interactive shell after a failure or rd.break lets the boot
 * go on, as leaving the console's does. docs/remote.md. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/guest.h"
#include "bootlib/shell.h"
#include "bootlib/shellstate.h"
#include "bootlib/sysroot.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "remote/login.h"
#include "remote/unlock.h"

#define REPORT LAYOUT_RESCUE_REPORT

/* The report's reason (its "why: " line) into why; false: none. */
static bool report_why(char *why, size_t size)
{
	char line[1024];
	FILE *f = fopen(REPORT, "re");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (strncmp(line, "why: ", 5) == 0) {
			snprintf(why, size, "%s", line + 5);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

/* What the console's summary says: why the boot stopped and, after a
 * failure, the interfaces or disks it listed (a reason may point at them). */
static void diagnosis(const struct shell_state *st)
{
	char why[1024];

	if (!report_why(why, sizeof(why))) {
		printf("lifeboat: the boot goes on (nothing failed so far)\n");
		fflush(stdout);
		return;
	}
	printf("lifeboat: the boot stopped: %s", why);
	fflush(stdout);
	if (st->cause == SHELL_FOR_FAILURE && file_read_to_stream(LAYOUT_RESCUE_SUMMARY, stdout) < 0)
		printf("lifeboat: the console's lists are not in %s; see the report\n",
		       LAYOUT_RESCUE_SUMMARY);
	printf("lifeboat: the full report is %s; type exit to let the boot go on\n", REPORT);
	fflush(stdout);
}

/* Leaving an interactive shell ends the console's, so that the boot goes
 * on; said first, while the session still stands: a root mounted by hand
 * is entered right away, and the server with this session goes then. */
static void leave_rescue(void)
{
	struct shell_state st;

	/* As it is now: the console's person may have left meanwhile. */
	if (shell_state_read(SHELL_STATE_PATH, &st) < 0 || !shell_state_console_open(&st))
		return;
	if (sysroot_is_mounted())
		printf("lifeboat: /sysroot is mounted: the boot goes on with it; this session "
		       "ends as the real root starts\n");
	else
		printf("lifeboat: the console's shell is closed; the boot goes on (what "
		       "failed is tried again)\n");
	fflush(stdout);
	shell_end_console();
}

static int shell_login(const char *command, const struct shell_state *st)
{
	enum shell_cause cause = SHELL_FOR_REMOTE;
	int r;

	if (!command)
		diagnosis(st);
	r = shell_enter_remote(command, &cause);
	if (r < 0)
		return 1;
	if (!command)
		leave_rescue();
	return r;
}

/* unlock asked while the boot waits in the rescue: no prompt will come. */
static int no_prompt(void)
{
	char why[1024];

	printf("lifeboat: no passphrase prompt waits: the boot is in the rescue shell");
	if (report_why(why, sizeof(why)))
		printf(" (it stopped: %.*s)", (int)strcspn(why, "\n"), why);
	printf("; log in with a key that may run a shell to repair it, and unlock there "
	       "(cryptsetup open)\n");
	return 1;
}

int main(int argc, char **argv)
{
	struct shell_state st = { .cause = SHELL_FOR_REMOTE };
	const char *command;

	if (login_args(argc, argv, &command) < 0) {
		fprintf(stderr, "usage: lifeboat-login [-c COMMAND]\n");
		return 2;
	}
	/* Unreadable: nothing is known to be stopped (the gate then says why). */
	if (shell_state_read(SHELL_STATE_PATH, &st) < 0)
		st = (struct shell_state){ .cause = SHELL_FOR_REMOTE };
	switch (login_what(command, access(GUEST_SOCKET, F_OK) == 0, shell_state_console_open(&st))) {
	case LOGIN_UNLOCK:
		return unlock_relay(GUEST_SOCKET, 0, 1, UNLOCK_WAIT_MS) < 0 ? 1 : 0;
	case LOGIN_NO_PROMPT:
		return no_prompt();
	case LOGIN_SHELL:
		break;
	}
	return shell_login(command, &st);
}
