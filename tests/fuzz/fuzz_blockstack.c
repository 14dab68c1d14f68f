/* Fuzz target: the block-stack parameters and the dm names of root= paths. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/dmname.h"
#include "blockstack/params.h"
#include "init/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct boot_args args;
	struct stack_params p;
	char name[STACK_NAME_MAX];

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	boot_args_init(&args);
	cmdline_parse(line, &args);
	stack_params_init(&p);
	for (size_t i = 0; i < args.stack_params.len; i++) {
		const char *w = args.stack_params.items[i];

		stack_params_apply(&p, w);
		stack_params_luks_wanted(&p, w, name, sizeof(name));
		stack_params_md_wanted(&p, w);
	}
	stack_params_apply(&p, line);
	dmname_from_path(line, name, sizeof(name));
	dmname_from_path(line, name, 3);
	boot_args_free(&args);
	free(line);
	return 0;
}
