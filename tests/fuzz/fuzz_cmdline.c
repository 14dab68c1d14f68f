/* Fuzz target: the kernel command line, root= and rootflags= parsers, and
 * the modules' MODULE.PARAM=VALUE words (bootlib/modparams.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "init/bootargs.h"
#include "bootlib/devspec.h"
#include "bootlib/modparams.h"
#include "init/mountopts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct boot_args args;
	struct dev_spec spec;
	unsigned long flags = 0;
	char mdata[CMDLINE_VALUE_MAX];

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	bootargs_init(&args);
	bootargs_parse(line, NULL, &args);
	if (devspec_parse(args.root.root, &spec) == 0) {
		struct blk_info info = { .label = "x", .uuid = "y" };

		devspec_matches(&spec, "vda", 254, 0, &info);
	}
	mountopts_parse(args.root.flags, &flags, mdata, sizeof(mdata));
	mountopts_parse(line, &flags, mdata, sizeof(mdata));
	{
		char *opts = NULL;

		/* Every option handed on is one of the line's, so no longer. */
		if (modparams_for(&args.drivers.params, "ramoops", &opts) == 0 &&
		    strlen(opts) > 3 * size + 2)
			abort();
		free(opts);
	}
	bootargs_free(&args);
	free(line);
	return 0;
}
