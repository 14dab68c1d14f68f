/* diskbusy: an exclusive open tells whether a disk is still in use. */
#include "shutdown/diskbusy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

bool diskbusy_held(const char *disk)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", disk);
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EBUSY;
}
