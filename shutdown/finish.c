/* finish: the last sync, bounded, and reboot(2). */
#include "shutdown/finish.h"

#include <errno.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "shutdown/bounded.h"

int finish_sync(void)
{
	sync();
	return 0;
}

int finish_sync_bounded(int (*sync_fn)(void), unsigned int sync_ms)
{
	/* sync(2) waits for every filesystem; one on a dead NFS server or
	 * a disk that stopped answering would hold the power-off for ever,
	 * so it runs in a child and the machine goes on without it. */
	if (bounded_run(sync_fn, sync_ms) != -ETIMEDOUT)
		return 0;
	log_warn("the sync did not end within %u s: a disk or server does not take the "
		 "writes; going on without it", sync_ms / 1000);
	return -ETIMEDOUT;
}

int finish_run(const struct shutdown_args *args, const char *summary,
	       const struct finish_ops *ops, unsigned int sync_ms)
{
	finish_sync_bounded(ops->sync, sync_ms);
	log_info("the way out is done, %s; %s", summary, args->verb);
	if (args->reboot_cmd == RB_KEXEC) {
		int r = ops->reboot(RB_KEXEC);

		log_warn("kexec failed (%s: is a kernel loaded with kexec -l?); rebooting",
			 strerror(-r));
		return ops->reboot(RB_AUTOBOOT);
	}
	return ops->reboot(args->reboot_cmd);
}
