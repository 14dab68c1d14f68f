/* addfile: the two halves of an --add-files item (see addfile.h). */
#include "gen/addfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int addfile_src(const char *item, char *src, size_t size)
{
	int len = (int)strcspn(item, ":");

	return snprintf(src, size, "%.*s", len, item) < (int)size ? 0 : -ENAMETOOLONG;
}

const char *addfile_dst(const char *item)
{
	const char *colon = strchr(item, ':');

	return colon ? colon + 1 : item;
}
