/* live_loop: LOOP_CTL_GET_FREE, then LOOP_CONFIGURE (Linux 5.8), or
 * LOOP_SET_FD and LOOP_SET_STATUS64 on an older kernel. */
#include "net/live/live_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Another process may take the free device first: try the next. */
#define LOOP_TRIES 8

static int loop_configure(int dev, int file)
{
	struct loop_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned int)file;
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
	if (ioctl(dev, LOOP_CONFIGURE, &cfg) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -errno;
	/* A kernel before 5.8: the same in two steps. */
	if (ioctl(dev, LOOP_SET_FD, file) < 0)
		return -errno;
	if (ioctl(dev, LOOP_SET_STATUS64, &cfg.info) < 0) {
		int r = -errno;

		ioctl(dev, LOOP_CLR_FD, 0);
		return r;
	}
	return 0;
}

static int loop_try(int ctl, int file, char *name, size_t size)
{
	char path[32];
	int n = ioctl(ctl, LOOP_CTL_GET_FREE), dev, r;

	if (n < 0)
		return -errno;
	snprintf(name, size, "loop%d", n);
	snprintf(path, sizeof(path), "/dev/loop%d", n);
	dev = open(path, O_RDONLY | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	r = loop_configure(dev, file);
	if (r < 0) {
		close(dev);
		return r;
	}
	return dev;
}

int live_loop_attach(const char *path, char *name, size_t size)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC), file, r = -EBUSY;

	if (ctl < 0)
		return -errno;
	file = open(path, O_RDONLY | O_CLOEXEC);
	if (file < 0) {
		r = -errno;
		close(ctl);
		return r;
	}
	for (int i = 0; i < LOOP_TRIES && r == -EBUSY; i++)
		r = loop_try(ctl, file, name, size);
	close(file);
	close(ctl);
	return r;
}
