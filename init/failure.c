/* failure: the diagnosis printed when the boot cannot go on. */
#include "init/failure.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/log.h"

#define POWEROFF_DELAY_SEC 5

void failure_list_devices(void)
{
	DIR *dir = opendir("/sys/class/block");
	struct dirent *de;
	int n = 0;

	console_print("lifeboat: block devices present:\n");
	while (dir && (de = readdir(dir))) {
		struct blk_info info;

		if (de->d_name[0] == '.')
			continue;
		n++;
		if (blk_probe(de->d_name, &info) < 0) {
			console_print("  /dev/%s (unreadable)\n", de->d_name);
			continue;
		}
		console_print("  /dev/%s TYPE=\"%s\" LABEL=\"%s\" UUID=\"%s\" PARTUUID=\"%s\" PARTLABEL=\"%s\"\n",
			      de->d_name, info.type, info.label, info.uuid, info.partuuid,
			      info.partlabel);
	}
	if (dir)
		closedir(dir);
	if (n == 0)
		console_print("  (none: the disk's driver may be missing from the image; "
			      "build it with --generic or --add-modules)\n");
}

void failure_poweroff(const char *what)
{
	log_error("boot failed: %s", what);
	console_print("\nlifeboat: boot failed: %s\n", what);
	failure_list_devices();
	console_print("lifeboat: powering off in %d seconds\n", POWEROFF_DELAY_SEC);
	sync();
	sleep(POWEROFF_DELAY_SEC);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
