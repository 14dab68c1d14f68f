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

static int coldplug_bus(int busfd, const char *bus)
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
		    modtab_modalias_wanted(alias)) {
			int r = modload_modalias(alias);

			if (r > 0)
				loaded += r;
			log_debug("coldplug %s/%s: %s (%d loaded)", bus, de->d_name, alias, r);
		}
		close(devfd);
	}
	closedir(dir);
	return loaded;
}

int coldplug_devices(void)
{
	DIR *buses = opendir("/sys/bus");
	struct dirent *de;
	int loaded = 0;

	if (!buses)
		return 0;
	while ((de = readdir(buses)))
		if (de->d_name[0] != '.')
			loaded += coldplug_bus(dirfd(buses), de->d_name);
	closedir(buses);
	return loaded;
}

int coldplug_buses(const char *const *buses)
{
	int busfd = open("/sys/bus", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int loaded = 0;

	if (busfd < 0)
		return 0;
	for (; *buses; buses++)
		loaded += coldplug_bus(busfd, *buses);
	close(busfd);
	return loaded;
}
