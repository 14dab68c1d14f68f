/* coldplug: load the drivers of devices that exist before the init listens. */
#include "bootlib/coldplug.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "common/modtab.h"

/* Read a small sysfs attribute at dirfd/name into buf, without the newline. */
static int read_attr(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

bool coldplug_is_late(const char *modalias)
{
	/* PCI base class 01 (mass storage), subclass 01 (IDE): bcNNscNN. A
	 * PS/2 port (serio) holds no disk, and its keyboard's driver is there
	 * before any prompt all the same. */
	return (strncmp(modalias, "pci:", 4) == 0 && strstr(modalias, "bc01sc01") != NULL) ||
	       strncmp(modalias, "serio:", 6) == 0;
}

bool coldplug_is_disk_maker(const char *modalias)
{
	/* A virtio storage controller on PCI (vendor 1AF4, class 01), and the
	 * virtio devices it makes: IDs 2 (block) and 8 (SCSI host), from the
	 * virtio specification. */
	return (strncmp(modalias, "pci:v00001AF4", 13) == 0 && strstr(modalias, "bc01sc") != NULL) ||
	       strncmp(modalias, "virtio:d00000002v", 17) == 0 ||
	       strncmp(modalias, "virtio:d00000008v", 17) == 0;
}

/* Which devices one pass loads drivers for. */
enum coldplug_pick { PICK_ALL, PICK_EARLY, PICK_LATE };

/* skipped (PICK_EARLY's only) is set when a late device was passed over. */
static bool picked(const char *alias, enum coldplug_pick pick, bool *skipped)
{
	bool late;

	if (pick == PICK_ALL)
		return true;
	late = coldplug_is_late(alias);
	if (late && pick == PICK_EARLY)
		*skipped = true;
	return late == (pick == PICK_LATE);
}

int coldplug_load(const char *modalias, bool early)
{
	/* Virtio disks probe before the early pass goes on, so that they
	 * exist before the late drivers' short wait (evloop.c) begins. */
	return early && coldplug_is_disk_maker(modalias) ? modload_modalias_probed(modalias)
							 : modload_modalias(modalias);
}

static int coldplug_bus(int busfd, const char *bus, enum coldplug_pick pick, bool *skipped)
{
	char path[300];
	char alias[512];
	struct dirent *de;
	DIR *dir;
	int loaded = 0;

	snprintf(path, sizeof(path), "%s/devices", bus);
	dir = fdopendir(openat(busfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		int devfd;

		if (de->d_name[0] == '.')
			continue;
		devfd = openat(dirfd(dir), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (devfd < 0)
			continue;
		if (read_attr(devfd, "modalias", alias, sizeof(alias)) == 0 && alias[0] &&
		    modtab_modalias_wanted(alias) && picked(alias, pick, skipped)) {
			int r = coldplug_load(alias, pick == PICK_EARLY);

			if (r > 0)
				loaded += r;
			log_debug("coldplug %s/%s: %s (%d loaded)", bus, de->d_name, alias, r);
		}
		close(devfd);
	}
	closedir(dir);
	return loaded;
}

static int coldplug_pass(enum coldplug_pick pick, bool *skipped)
{
	DIR *buses = opendir("/sys/bus");
	struct dirent *de;
	int loaded = 0;

	if (!buses)
		return 0;
	while ((de = readdir(buses)))
		if (de->d_name[0] != '.')
			loaded += coldplug_bus(dirfd(buses), de->d_name, pick, skipped);
	closedir(buses);
	return loaded;
}

int coldplug_devices(void)
{
	return coldplug_pass(PICK_ALL, NULL);
}

int coldplug_early(bool *late_skipped)
{
	*late_skipped = false;
	return coldplug_pass(PICK_EARLY, late_skipped);
}

int coldplug_late(void)
{
	return coldplug_pass(PICK_LATE, NULL);
}

int coldplug_buses(const char *const *buses)
{
	int busfd = open("/sys/bus", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int loaded = 0;

	if (busfd < 0)
		return 0;
	for (; *buses; buses++)
		loaded += coldplug_bus(busfd, *buses, PICK_ALL, NULL);
	close(busfd);
	return loaded;
}
