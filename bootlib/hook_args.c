/* hook_args: the boot scripts' words. */
#include "bootlib/hook_args.h"

#include <stddef.h>

static const struct cmdline_word words[] = {
	{ "rd.hook.timeout", cmdline_set_seconds, offsetof(struct hook_args, timeout_sec) },
};

void hook_args_init(struct hook_args *a)
{
	a->timeout_sec = HOOK_TIMEOUT_DEFAULT_SEC;
}

struct cmdline_owner hook_args_cmdline(struct hook_args *a)
{
	return (struct cmdline_owner){ "hooks", words, CMDLINE_N(words), a, NULL };
}
