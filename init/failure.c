/* failure: the diagnosis printed when the boot cannot go on. */
#include "init/failure.h"

#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/log.h"

#define POWEROFF_DELAY_SEC 5

void failure_poweroff(const char *what)
{
	log_error("boot failed: %s", what);
	log_console("\nlifeboat: boot failed: %s\n", what);
	log_console("lifeboat: block devices present:\n");
	if (blkprobe_list(stdout) == 0)
		log_console("  (none)\n");
	log_console("lifeboat: powering off in %d seconds\n", POWEROFF_DELAY_SEC);
	sync();
	sleep(POWEROFF_DELAY_SEC);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
