/* hookspec: the boot scripts' stages and the rule of what may run. */
#include "common/hookspec.h"

#include <errno.h>
#include <string.h>

const char *const hookspec_stages[] = {
	"cmdline", "pre-udev", "pre-trigger", "initqueue", "initqueue/settled",
	"pre-mount", "mount", "pre-pivot", "cleanup",
};
const size_t hookspec_n_stages = sizeof(hookspec_stages) / sizeof(hookspec_stages[0]);

const char *hookspec_stage_find(const char *name)
{
	for (size_t i = 0; i < hookspec_n_stages; i++)
		if (strcmp(hookspec_stages[i], name) == 0)
			return hookspec_stages[i];
	return NULL;
}

/* Root's, and writable by root alone: whoever else could write it could
 * run code as root in the build or in the boot. */
static int owned_by_root(const struct stat *st, const char **why)
{
	if (st->st_uid != 0) {
		*why = "is not owned by root";
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		*why = "is writable by group or others";
		return -EPERM;
	}
	return 0;
}

int hookspec_file_trusted(const struct stat *st, const char **why)
{
	if (!S_ISREG(st->st_mode)) {
		*why = "is not a regular file";
		return -EPERM;
	}
	if (!(st->st_mode & S_IXUSR)) {
		*why = "is not executable";
		return -EPERM;
	}
	return owned_by_root(st, why);
}

int hookspec_dir_trusted(const struct stat *st, const char **why)
{
	if (!S_ISDIR(st->st_mode)) {
		*why = "is not a directory";
		return -EPERM;
	}
	return owned_by_root(st, why);
}
