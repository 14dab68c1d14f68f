/* prompt: the built-in rescue prompt, for images without a shell. */
#ifndef LIFEBOAT_RESCUE_PROMPT_H
#define LIFEBOAT_RESCUE_PROMPT_H

#include <stddef.h>

enum prompt_cmd {
	PROMPT_EMPTY,     /* a blank line: ask again */
	PROMPT_HELP,
	PROMPT_REPORT,
	PROMPT_DEVICES,
	PROMPT_CONTINUE,  /* retry, continue, exit: leave the prompt, the boot goes on */
	PROMPT_REBOOT,
	PROMPT_POWEROFF,
};

/* The command a typed line names: one word, surrounding blanks ignored.
 * Returns the command or -EINVAL for anything else. */
int prompt_parse(const char *line);
/* Ask for commands on the terminal fd until one continues the boot; reboot
 * and poweroff do not return. Returns 0, or -EIO when the console gave out
 * (the caller then goes on as after "continue"). */
int prompt_run(int fd);

#endif
