/* driver_args: the module loader's words: rd.driver.pre=, rd.driver.post=,
 * rd.driver.blacklist= (dracut's comma lists, accumulating), and the
 * modules' MODULE.PARAM=VALUE words in the order given (bootlib/modparams.h). */
#ifndef LIFEBOAT_DRIVER_ARGS_H
#define LIFEBOAT_DRIVER_ARGS_H

#include "bootlib/cmdline.h"
#include "common/strv.h"

struct driver_args {
	struct strv pre;
	struct strv post;
	struct strv blacklist;
	struct strv params;
};

void driver_args_init(struct driver_args *a);
void driver_args_free(struct driver_args *a);
/* Also takes the words no other component declares that set a module's parameter. */
struct cmdline_owner driver_args_cmdline(struct driver_args *a);

#endif
