/* rescue_args: rd.shell and rd.break[=STAGE], the words of the shell gate
 * (bootlib/shell.h) and of rescue/. */
#ifndef LIFEBOAT_RESCUE_ARGS_H
#define LIFEBOAT_RESCUE_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"

struct rescue_args {
	bool shell;                   /* a shell on failure (default on, as dracut's) */
	unsigned int break_stages;    /* STAGE_BIT()s */
};

void rescue_args_init(struct rescue_args *a);
struct cmdline_owner rescue_args_cmdline(struct rescue_args *a);

#endif
