/* unmount: the unmount loop of the way out.
 *
 * A pass tries every mount under the prefix, deepest first; a mount that
 * is busy may come free when another goes (a bind of it, a loop device's
 * file), so passes repeat while any mount came off. Then, for what is
 * left: a remote filesystem gets MNT_FORCE (its server may be gone), and
 * anything still there is remounted read-only and detached (MNT_DETACH),
 * which the log says, naming the mount and what held it. */
#include "shutdown/unmount.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "shutdown/mountlist.h"

#define UNMOUNT_PASSES 16

static bool is_remote(const char *fstype)
{
	return strcmp(fstype, "nfs") == 0 || strcmp(fstype, "nfs4") == 0 ||
	       strcmp(fstype, "cifs") == 0;
}

/* The old root itself is said at info level, on the console: that the
 * way out (not the init before it, not the power-off) took it off, and
 * how, is what a person debugging a shutdown and the boot tests look for. */
static void unmounted(const struct mount_entry *m, const char *prefix, int flags)
{
	const char *how = (flags & MNT_FORCE) ? " by force (MNT_FORCE: its server did not let go)" : "";

	if (strcmp(m->path, prefix) == 0)
		log_info("unmounted the old root %s (%s on %s)%s", m->path, m->fstype, m->source, how);
	else
		log_debug("unmounted %s (%s on %s)%s", m->path, m->fstype, m->source, how);
}

/* One pass; returns how many mounts came off. */
static int unmount_pass(const struct mount_list *list, const char *prefix, int flags)
{
	int done = 0;

	for (size_t i = 0; i < list->len; i++) {
		const struct mount_entry *m = &list->items[i];

		if ((flags & MNT_FORCE) && !is_remote(m->fstype))
			continue;
		if (umount2(m->path, flags) == 0) {
			unmounted(m, prefix, flags);
			done++;
		}
	}
	return done;
}

static void detach_rest(const struct mount_list *list)
{
	for (size_t i = 0; i < list->len; i++) {
		const struct mount_entry *m = &list->items[i];

		if (umount2(m->path, 0) == 0)
			continue;
		log_warn("%s (%s on %s) will not unmount: %s; remounting it read-only and "
			 "detaching it (%s)", m->path, m->fstype, m->source, strerror(errno),
			 getpid() == 1 ? "a process still uses it?" :
			 "PID 1, the init whose script handed over, still runs from it");
		if (mount(NULL, m->path, NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0)
			log_error("%s cannot be made read-only either (%s): it is not written "
				  "clean", m->path, strerror(errno));
		if (umount2(m->path, MNT_DETACH) < 0)
			log_error("detaching %s failed too: %s", m->path, strerror(errno));
	}
}

int unmount_below(const char *prefix)
{
	struct mount_list list;
	int left;

	for (int pass = 0; pass < UNMOUNT_PASSES; pass++) {
		int r = mountlist_read(prefix, &list);

		if (r < 0 && r != -E2BIG)
			return r;
		if (list.len == 0 || unmount_pass(&list, prefix, 0) == 0)
			break;
	}
	(void)mountlist_read(prefix, &list);
	if (list.len > 0 && unmount_pass(&list, prefix, MNT_FORCE) > 0)
		(void)mountlist_read(prefix, &list);
	/* A detached mount is gone from the list but was not unmounted
	 * clean: it counts as left. */
	left = (int)list.len;
	if (left > 0)
		detach_rest(&list);
	return left;
}
