/* login: what a login over SSH gets, from the command it asked for. */
#include "remote/login.h"

#include <errno.h>
#include <string.h>

static const char *const unlock_commands[] = {
	"unlock", "lifeboat-unlock", "cryptroot-unlock",
};

bool login_is_unlock(const char *command)
{
	size_t len;

	if (!command)
		return false;
	/* Surrounding blanks are the client's quoting, not a command. */
	while (*command == ' ' || *command == '\t')
		command++;
	len = strcspn(command, " \t\n");
	if (command[len + strspn(command + len, " \t\n")])
		return false;
	for (size_t i = 0; i < sizeof(unlock_commands) / sizeof(unlock_commands[0]); i++)
		if (strlen(unlock_commands[i]) == len && strncmp(unlock_commands[i], command, len) == 0)
			return true;
	return false;
}

enum login_kind login_what(const char *command, bool prompt_waits, bool stopped)
{
	if (!command)
		return prompt_waits ? LOGIN_UNLOCK : LOGIN_SHELL;
	if (!login_is_unlock(command))
		return LOGIN_SHELL;
	/* Waiting for a prompt would only time out. */
	return prompt_waits || !stopped ? LOGIN_UNLOCK : LOGIN_NO_PROMPT;
}

int login_args(int argc, char *const argv[], const char **command)
{
	*command = NULL;
	if (argc <= 1)
		return 0;
	if (argc == 3 && strcmp(argv[1], "-c") == 0) {
		*command = argv[2];
		return 0;
	}
	return -EINVAL;
}
