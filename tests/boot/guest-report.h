/* guest-report: what the static test inits (test-init, hostgen-init) report
 * about the root they run on. Each init is one file built with -static, so
 * this header holds the definitions. */
#ifndef LIFEBOAT_TESTS_GUEST_REPORT_H
#define LIFEBOAT_TESTS_GUEST_REPORT_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static void print_root_mount(void)
{
	char line[512];
	FILE *f = fopen("/proc/mounts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char dev[128], dir[128], type[32], opts[256];

		if (sscanf(line, "%127s %127s %31s %255s", dev, dir, type, opts) == 4 &&
		    strcmp(dir, "/") == 0 && strcmp(dev, "rootfs") != 0)
			printf("LIFEBOAT-TEST: rootmount %s %s %s\n", dev, type, opts);
	}
	if (f)
		fclose(f);
}

/* One line of a sysfs attribute, without its newline, into buf ("?" if unreadable). */
static const char *sysfs_word(const char *dev, const char *attr, char *buf, int size)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/%s", dev, attr);
	f = fopen(path, "r");
	if (!f || !fgets(buf, size, f))
		snprintf(buf, size, "?");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* Each device-mapper device as "dm dm-N NAME ro=0|1 discard=BYTES": the
 * cases check the options a container was opened with (crypttab's). */
static void print_dm_devices(void)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char name[128], ro[8], discard[32];

		if (strncmp(e->d_name, "dm-", 3) != 0)
			continue;
		printf("LIFEBOAT-TEST: dm %s %s ro=%s discard=%s\n", e->d_name,
		       sysfs_word(e->d_name, "dm/name", name, sizeof(name)),
		       sysfs_word(e->d_name, "ro", ro, sizeof(ro)),
		       sysfs_word(e->d_name, "queue/discard_max_bytes", discard, sizeof(discard)));
	}
	if (d)
		closedir(d);
}

#endif
