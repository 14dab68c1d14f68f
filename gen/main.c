/* lifeboat: the generator's command line: build an image, or list one. */
#include <stdio.h>
#include <string.h>

#include "gen/cmd/build.h"
#include "gen/cmd/kdump_load.h"
#include "gen/cmd/ls.h"
#include "gen/options.h"
#include "gen/cmd/timeline_cmd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: lifeboat build -o IMAGE [options]   make an initramfs (--help for options)\n"
		   "       lifeboat ls IMAGE                  list an initramfs\n"
		   "       lifeboat kdump load|status|unload  arm the crash kernel (kdump)\n"
		   "       lifeboat timeline [FILE] [--svg OUT] the boot's phases, as a table or a picture\n");
}

static int cmd_build(int argc, char **argv)
{
	struct build_opts o;
	int r;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			build_usage();
			return 0;
		}
	build_opts_init(&o);
	r = build_opts_parse(&o, argc, argv);
	if (r < 0) {
		build_opts_free(&o);
		return 2;
	}
	r = build_image(&o);
	build_opts_free(&o);
	return r < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "build") == 0)
		return cmd_build(argc - 1, argv + 1);
	if (strcmp(argv[1], "kdump") == 0)
		return kdump_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "ls") == 0)
		return ls_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "timeline") == 0)
		return timeline_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "lifeboat: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
