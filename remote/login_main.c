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
#include "remote/login.h"
#include "remote/unlock.h"

#define REPORT "/run/initramfs/rdsosreport.txt"

/* What the console's summary says first: why the boot stopped. */
static void diagnosis(void)
{
	char line[1024];
	FILE *f = fopen(REPORT, "re");
	bool said = false;

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "why: ", 5) == 0) {
			printf("lifeboat: the boot stopped: %s", line + 5);
			said = true;
			break;
		}
	if (f)
		fclose(f);
	if (said)
		printf("lifeboat: the full report is %s; type exit to let the boot go on\n",
		       REPORT);
	else
		printf("lifeboat: the boot goes on (nothing failed so far)\n");
	fflush(stdout);
}

static int shell_login(const char *command)
{
	enum shell_cause cause = SHELL_FOR_REMOTE;
	int r;

	if (!command)
		diagnosis();
	r = shell_enter_remote(command, &cause);
	if (r < 0)
		return 1;
	if (!command && shell_end_console() == 0)
		printf("lifeboat: the console's shell was closed; the boot goes on\n");
	return r;
}

int main(int argc, char **argv)
{
	const char *command;

	if (login_args(argc, argv, &command) < 0) {
		fprintf(stderr, "usage: lifeboat-login [-c COMMAND]\n");
		return 2;
	}
	if (login_what(command, access(GUEST_SOCKET, F_OK) == 0) == LOGIN_UNLOCK)
		return unlock_relay(GUEST_SOCKET, 0, 1, UNLOCK_WAIT_MS) < 0 ? 1 : 0;
	return shell_login(command);
}
