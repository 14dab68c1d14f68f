/* handover: the way in to the way out for inits that are not systemd.
 *
 * systemd-shutdown, as PID 1, pivots into /run/initramfs and execs
 * /shutdown (the contract is in shutdown/shutdown_main.c). A sysvinit,
 * OpenRC or runit shutdown ends in a script run by PID 1, which stays the
 * init: the script calls `lifeboat-shutdown VERB` last, and this does the
 * same pivot for the whole mount namespace (pivot_root moves every process
 * whose root was the old one, PID 1 included), then execs the copy in
 * /run/initramfs so that this process maps nothing from the old root.
 * PID 1's own program still does: what it runs from can only be remounted
 * read-only and detached, and the layers under it stay (docs/shutdown.md). */
#include "shutdown/handover.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "common/layout.h"
#include "shutdown/finish.h"

/* The API filesystems go with the handover; where the way out has no place
 * for one it is detached, as systemd does. */
static void move_api_mounts(void)
{
	static const char *const api[] = { "/dev", "/proc", "/sys" };

	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		char target[64];

		snprintf(target, sizeof(target), "%s%s", LAYOUT_EXITRD_DIR, api[i]);
		if (access(target, F_OK) < 0 || mount(api[i], target, NULL, MS_MOVE, NULL) < 0)
			umount2(api[i], MNT_DETACH);
	}
}

static int fail(char *why, size_t size, const char *step)
{
	int r = -errno;

	snprintf(why, size, "handing over to the way out in %s failed (%s: %s); syncing and "
		 "going on without it", LAYOUT_EXITRD_DIR, step, strerror(errno));
	return r;
}

static int pivot_into_exitrd(char *why, size_t size)
{
	/* Shared mounts would carry the moves back to their peers. */
	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	if (mount(LAYOUT_EXITRD_DIR, LAYOUT_EXITRD_DIR, NULL, MS_BIND | MS_REC, NULL) < 0)
		return fail(why, size, "binding it onto itself");
	move_api_mounts();
	if (chdir(LAYOUT_EXITRD_DIR) < 0)
		return fail(why, size, "chdir");
	if (syscall(SYS_pivot_root, ".", "oldroot") < 0)
		return fail(why, size, "pivot_root");
	if (chdir("/") < 0)
		return fail(why, size, "chdir /");
	return 0;
}

int handover_from_script(const struct shutdown_args *args, char *why, size_t size)
{
	char *argv[] = { (char *)"/shutdown", (char *)args->verb, (char *)SHUTDOWN_HANDED_OVER,
			 (char *)(args->debug ? "--log-level=debug" : NULL), NULL };
	int r;

	if (access(LAYOUT_EXITRD_PROGRAM, X_OK) < 0) {
		log_info("no way out was left in %s (the root needs none: it is on a plain disk); "
			 "syncing and going on to %s", LAYOUT_EXITRD_DIR, args->verb);
		return 0;
	}
	log_info("handing over to the way out in %s from a script (PID %d); PID 1 stays the "
		 "init", LAYOUT_EXITRD_DIR, (int)getpid());
	finish_sync_bounded(finish_sync, FINISH_SYNC_MS);
	r = pivot_into_exitrd(why, size);
	if (r < 0)
		return r;
	execv("/shutdown", argv);
	return fail(why, size, "exec /shutdown");
}
