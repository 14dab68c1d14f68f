/* driver_args: rd.driver.*, and MODULE.PARAM=VALUE words. */
#include "bootlib/driver_args.h"

#include <stddef.h>

#include "bootlib/modparams.h"

static const struct cmdline_word words[] = {
	{ "rd.driver.pre",       cmdline_set_list, offsetof(struct driver_args, pre) },
	{ "rd.driver.post",      cmdline_set_list, offsetof(struct driver_args, post) },
	{ "rd.driver.blacklist", cmdline_set_list, offsetof(struct driver_args, blacklist) },
};

static int take_module_param(void *args, const char *word)
{
	struct driver_args *a = args;

	return modparams_is_word(word) ? strv_push(&a->params, word) : 0;
}

void driver_args_init(struct driver_args *a)
{
	*a = (struct driver_args){ STRV_INIT, STRV_INIT, STRV_INIT, STRV_INIT };
}

void driver_args_free(struct driver_args *a)
{
	strv_free(&a->pre);
	strv_free(&a->post);
	strv_free(&a->blacklist);
	strv_free(&a->params);
}

struct cmdline_owner driver_args_cmdline(struct driver_args *a)
{
	return (struct cmdline_owner){ "drivers", words, CMDLINE_N(words), a, take_module_param };
}
