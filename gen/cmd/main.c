/* lifeboat: the generator's command line: a table of subcommands. */
#include <stdio.h>
#include <string.h>

#include "gen/cmd/build.h"
#include "gen/cmd/kdump_load.h"
#include "gen/cmd/ls.h"
#include "gen/cmd/timeline_cmd.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);   /* argv[0] is the name; returns the exit status */
	const char *help;                    /* its usage line, after "lifeboat " */
};

static const struct subcommand subcommands[] = {
	{ "build", build_main, "build -o IMAGE [options]   make an initramfs (--help for options)" },
	{ "ls", ls_main, "ls IMAGE                  list an initramfs" },
	{ "kdump", kdump_load_main, "kdump load|status|unload  arm the crash kernel (kdump)" },
	{ "timeline", timeline_cmd_main, "timeline [FILE] [--svg OUT] the boot's phases, as a table or a picture" },
};

#define N_SUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *f)
{
	for (size_t i = 0; i < N_SUBCOMMANDS; i++)
		fprintf(f, "%s lifeboat %s\n", i == 0 ? "usage:" : "      ", subcommands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	for (size_t i = 0; i < N_SUBCOMMANDS; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0)
			return subcommands[i].run(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "lifeboat: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
