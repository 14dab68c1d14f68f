/* test-init: the /sbin/init of the test root disks. It reports what the boot
 * tests assert on (a marker, the root mount, the lifeboat timeline, its own
 * arguments, the device-mapper devices) on the console, then powers the
 * machine off, or with lifeboat.test.handback=VERB hands it back to the
 * initramfs's way out as systemd does (tests/boot/guest-handback.h).
 * Static, so the test roots need no libraries. */
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "tests/boot/guest-cmdline.h"
#include "tests/boot/guest-handback.h"
#include "tests/boot/guest-report.h"

static void print_file(const char *tag, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("LIFEBOAT-TEST: %s missing %s\n", tag, path);
		return;
	}
	while (fgets(line, sizeof(line), f))
		printf("LIFEBOAT-TEST: %s %s", tag, line);
	fclose(f);
}

int main(int argc, char **argv)
{
	char verb[32];

	printf("LIFEBOAT-TEST: root reached\n");
	for (int i = 0; i < argc; i++)
		printf("LIFEBOAT-TEST: argv[%d] %s\n", i, argv[i]);
	print_root_mount();
	print_dm_devices();
	print_file("uptime", "/proc/uptime");
	print_file("timeline", "/run/initramfs/timeline");
	if (access("/run/initramfs/net.eth0.conf", F_OK) == 0)
		print_file("netconf", "/run/initramfs/net.eth0.conf");
	if (access("/last-write", F_OK) == 0)
		print_file("lastwrite", "/last-write");
	if (access("/proc/mdstat", F_OK) == 0)
		print_file("mdstat", "/proc/mdstat");
	printf("LIFEBOAT-TEST: end\n");
	fflush(stdout);
	cmdline_read();
	if (param("lifeboat.test.handback", verb, sizeof(verb))[0])
		handback(verb);
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
