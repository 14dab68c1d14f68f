/* stackwords: one block-stack word (rd.luks*, rd.lvm*, rd.md*) applied
 * through the command line's parser, as the init hands it to blockstack/. */
#ifndef LIFEBOAT_TESTS_STACKWORDS_H
#define LIFEBOAT_TESTS_STACKWORDS_H

#include "blockstack/stack_params.h"
#include "bootlib/cmdline.h"

static inline int stack_params_apply(struct stack_params *p, const char *word)
{
	struct cmdline_owner owner = stack_params_cmdline(p);

	return cmdline_parse(word, NULL, &owner, 1);
}

#endif
