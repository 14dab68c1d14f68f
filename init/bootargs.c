/* bootargs: gather the command line from the image and from the kernel. */
#include "init/bootargs.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/redact.h"

static const struct cmdline_word debug_words[] = {
	{ "rd.debug", cmdline_set_flag, offsetof(struct boot_args, debug) },
};

void bootargs_owners(struct boot_args *args, struct cmdline_owner owners[BOOTARGS_OWNERS])
{
	struct cmdline_owner all[BOOTARGS_OWNERS] = {
		root_args_cmdline(&args->root),
		resume_args_cmdline(&args->resume),
		rescue_args_cmdline(&args->rescue),
		net_args_cmdline(&args->net),
		iscsi_args_cmdline(&args->iscsi),
		nvmf_args_cmdline(&args->nvmf),
		live_args_cmdline(&args->live),
		remote_args_cmdline(&args->remote),
		vconsole_args_cmdline(&args->vconsole),
		stack_params_cmdline(&args->stacks),
		fsck_args_cmdline(&args->fsck),
		hook_args_cmdline(&args->hooks),
		{ "log", debug_words, CMDLINE_N(debug_words), args, NULL },
		/* It also takes the words nobody declares (MODULE.PARAM=). */
		driver_args_cmdline(&args->drivers),
	};

	memcpy(owners, all, sizeof(all));
}

void bootargs_init(struct boot_args *args)
{
	memset(args, 0, sizeof(*args));
	root_args_init(&args->root);
	resume_args_init(&args->resume);
	rescue_args_init(&args->rescue);
	net_args_init(&args->net);
	live_args_init(&args->live);
	remote_args_init(&args->remote);
	driver_args_init(&args->drivers);
	stack_params_init(&args->stacks);
	hook_args_init(&args->hooks);
	args->fsck = FSCK_MODE_AUTO;
}

void bootargs_free(struct boot_args *args)
{
	driver_args_free(&args->drivers);
	net_args_free(&args->net);
}

int bootargs_parse(const char *line, const char *source, struct boot_args *args)
{
	struct cmdline_owner owners[BOOTARGS_OWNERS];

	bootargs_owners(args, owners);
	return cmdline_parse(line, source, owners, BOOTARGS_OWNERS);
}

static int apply_file(const char *path, struct boot_args *args)
{
	char line[CMDLINE_MAX];
	ssize_t n = file_read_text(path, 0, line, sizeof(line));
	int r;

	if (n < 0)
		return (int)n;
	r = bootargs_parse(line, path, args);
	explicit_bzero(line, sizeof(line));   /* it may hold CHAP secrets */
	return r;
}

static int is_conf(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 5 && strcmp(de->d_name + n - 5, ".conf") == 0;
}

/* Remove the first environment variable holding a secret; false if none. */
static bool environ_drop_one(void)
{
	size_t start, len;

	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char name[128];

		if (!eq || (size_t)(eq - *e) >= sizeof(name) || !redact_word_secret(*e, &start, &len))
			continue;
		memcpy(name, *e, (size_t)(eq - *e));
		name[eq - *e] = '\0';
		unsetenv(name);
		return true;
	}
	return false;
}

void bootargs_environ_clean(void)
{
	while (environ_drop_one())
		;
}

int bootargs_load(struct boot_args *args)
{
	struct dirent **names = NULL;
	int n = scandir(CMDLINE_D, &names, is_conf, alphasort);
	int first = 0;
	int r;

	for (int i = 0; i < n; i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", CMDLINE_D, names[i]->d_name);
		r = apply_file(path, args);
		if (r < 0 && !first)
			first = r;
		free(names[i]);
	}
	free(names);
	r = apply_file("/proc/cmdline", args);
	/* rd.timeout= is the root's word; it bounds a crypttab keyscript too. */
	args->stacks.keyscript_timeout_sec = args->root.timeout_sec;
	bootargs_environ_clean();
	return first ? first : r;
}
