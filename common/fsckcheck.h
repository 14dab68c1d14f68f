/* fsckcheck: which checker lifeboat runs for which filesystem, shared by
 * the init (fsck/) and the generator (gen/feature/fsckpack.c), which adds it. */
#ifndef LIFEBOAT_FSCKCHECK_H
#define LIFEBOAT_FSCKCHECK_H

#include <stddef.h>

struct fsck_checker {
	const char *fstype;
	const char *path;          /* in the image and on the host */
};

/* The checker for fstype, or NULL: xfs and btrfs have none here (xfs
 * replays its log at mount and xfs_repair -n cannot tell a dirty log from
 * damage; btrfs checks itself), nor have filesystems without one. */
const struct fsck_checker *fsck_checker_find(const char *fstype);
/* The i-th entry of the table, or NULL past its end. */
const struct fsck_checker *fsck_checker_at(size_t i);

#endif
