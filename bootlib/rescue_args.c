/* rescue_args: rd.shell, rd.break. */
#include "bootlib/rescue_args.h"

#include <stddef.h>

#include "bootlib/stage.h"

/* rd.break alone stops before switch_root, as dracut's does; repeatable. */
static int set_break(void *args, const struct cmdline_word *w, const char *value)
{
	struct rescue_args *a = args;
	int stage = value ? stage_parse(value) : STAGE_PRE_PIVOT;

	(void)w;
	if (stage < 0)
		return stage;
	a->break_stages |= STAGE_BIT(stage);
	return 0;
}

static const struct cmdline_word words[] = {
	{ "rd.shell", cmdline_set_flag, offsetof(struct rescue_args, shell) },
	{ "rd.break", set_break,        0 },
};

void rescue_args_init(struct rescue_args *a)
{
	a->shell = true;
	a->break_stages = 0;
}

struct cmdline_owner rescue_args_cmdline(struct rescue_args *a)
{
	return (struct cmdline_owner){ "rescue", words, CMDLINE_N(words), a, NULL };
}
