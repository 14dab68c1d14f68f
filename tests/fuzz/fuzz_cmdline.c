/* Fuzz target: the kernel command line, root= and rootflags= parsers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "init/cmdline.h"
#include "init/mountopts.h"
#include "init/rootspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct boot_args args;
	struct root_spec spec;
	unsigned long flags = 0;
	char mdata[CMDLINE_VALUE_MAX];

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	boot_args_init(&args);
	cmdline_parse(line, &args);
	if (root_spec_parse(args.root, &spec) == 0) {
		struct blk_info info = { .label = "x", .uuid = "y" };

		root_spec_matches(&spec, "vda", 254, 0, &info);
	}
	mountopts_parse(args.rootflags, &flags, mdata, sizeof(mdata));
	mountopts_parse(line, &flags, mdata, sizeof(mdata));
	boot_args_free(&args);
	free(line);
	return 0;
}
