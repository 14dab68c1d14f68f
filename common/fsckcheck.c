/* fsckcheck: the checker table. */
#include "common/fsckcheck.h"

#include <string.h>

static const struct fsck_checker checkers[] = {
	{ "ext2", "/usr/sbin/e2fsck" },
	{ "ext3", "/usr/sbin/e2fsck" },
	{ "ext4", "/usr/sbin/e2fsck" },
};

const struct fsck_checker *fsck_checker_find(const char *fstype)
{
	for (size_t i = 0; fstype && i < sizeof(checkers) / sizeof(checkers[0]); i++)
		if (strcmp(checkers[i].fstype, fstype) == 0)
			return &checkers[i];
	return NULL;
}

const struct fsck_checker *fsck_checker_at(size_t i)
{
	return i < sizeof(checkers) / sizeof(checkers[0]) ? &checkers[i] : NULL;
}
