/* kernel_fixture: the installed kernel whose modules the libkmod tests read
 * (test_kmods.c, test_fwmissing.c), found at run time; a test without one
 * is skipped. */
#ifndef LIFEBOAT_TEST_KERNEL_FIXTURE_H
#define LIFEBOAT_TEST_KERNEL_FIXTURE_H

#include <dirent.h>
#include <stdio.h>
#include <unistd.h>

static char kver[256];
static char moddir[512];

/* A group setup: the first /lib/modules/VERSION with a modules.dep. */
static int kernel_find(void **state)
{
	DIR *d = opendir("/lib/modules");
	struct dirent *e;

	(void)state;
	while (d && (e = readdir(d))) {
		char dep[1024];

		snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", e->d_name);
		if (e->d_name[0] != '.' && access(dep, R_OK) == 0) {
			snprintf(kver, sizeof(kver), "%s", e->d_name);
			snprintf(moddir, sizeof(moddir), "/lib/modules/%s", kver);
			break;
		}
	}
	if (d)
		closedir(d);
	return 0;
}

#define NEED_KERNEL() do { if (!kver[0]) skip(); } while (0)

#endif
