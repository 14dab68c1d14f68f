/* mountlist: the mounts left under a directory (/oldroot), read from
 * /proc/self/mountinfo, in the order they can be unmounted: children
 * before their parents. */
#ifndef LIFEBOAT_SHUTDOWN_MOUNTLIST_H
#define LIFEBOAT_SHUTDOWN_MOUNTLIST_H

#include <stddef.h>

#include "common/mountinfo.h"

#define MOUNTLIST_MAX 128
#define MOUNTLIST_PATH_MAX 256
#define MOUNTLIST_TYPE_MAX 32

struct mount_entry {
	char path[MOUNTLIST_PATH_MAX];  /* unescaped mount point */
	char fstype[MOUNTLIST_TYPE_MAX];
	char source[MOUNTLIST_PATH_MAX];
};

struct mount_list {
	size_t len;
	struct mount_entry items[MOUNTLIST_MAX];
};

/* Copy one parsed mountinfo line into out: 0 when it names a mount at or
 * below prefix (a path boundary: /oldroot, /oldroot/x, not /oldrootx),
 * -ENOENT when it is elsewhere, -ENAMETOOLONG when a field does not fit. */
int mountlist_entry_from(const struct mountinfo_entry *m, const char *prefix,
			 struct mount_entry *out);

/* Every line of text (mountinfo's contents) naming a mount under prefix,
 * deepest first. Lines past MOUNTLIST_MAX are dropped (-E2BIG, list kept). */
int mountlist_parse(const char *text, const char *prefix, struct mount_list *out);

/* Read /proc/self/mountinfo into out (0 or -errno). */
int mountlist_read(const char *prefix, struct mount_list *out);

#endif
