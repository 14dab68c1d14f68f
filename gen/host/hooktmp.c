/* hooktmp: the hooks' scratch directory, made and removed by the build. */
#define _XOPEN_SOURCE 700
#include "gen/host/hooktmp.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen_report.h"

int hooktmp_make(char *path, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(path, size, "%s/lifeboat-hooks.XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");

	if (n < 0 || (size_t)n >= size || !mkdtemp(path)) {
		int r = n < 0 || (size_t)n >= size ? -ENAMETOOLONG : -errno;

		gen_error("hooks: cannot make a scratch directory under %s: %s; set TMPDIR to a "
			  "writable directory", tmp && tmp[0] == '/' ? tmp : "/tmp", strerror(-r));
		path[0] = '\0';
		return r;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0)
		gen_warn("hooks: cannot remove %s from the scratch directory: %s", path,
			 strerror(errno));
	return 0;
}

void hooktmp_remove(const char *path)
{
	if (path[0] && nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		gen_warn("hooks: cannot remove the scratch directory %s: %s", path, strerror(errno));
}
