/* early: the API filesystems and the console, before anything else. */
#include "init/early.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/sysroot.h"

struct early_mount {
	const char *source, *target, *type;
	unsigned long flags;
	const char *data;
};

static const struct early_mount early_mount_table[] = {
	{ "proc",     "/proc", "proc",     MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	{ "sysfs",    "/sys",  "sysfs",    MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	{ "devtmpfs", "/dev",  "devtmpfs", MS_NOSUID,                        "mode=0755" },
	/* The real root's init expects /run to be a tmpfs it can keep. */
	{ "tmpfs",    "/run",  "tmpfs",    MS_NOSUID | MS_NODEV,             "mode=0755" },
};

int early_mounts(char *why, size_t why_size)
{
	for (size_t i = 0; i < sizeof(early_mount_table) / sizeof(early_mount_table[0]); i++) {
		const struct early_mount *m = &early_mount_table[i];

		mkdir(m->target, 0755);
		if (mount(m->source, m->target, m->type, m->flags, m->data) < 0 && errno != EBUSY) {
			int r = -errno;

			snprintf(why, why_size, "mounting %s failed: %s; the kernel needs %s support",
				 m->target, strerror(-r), m->type);
			return r;
		}
	}
	mkdir(SYSROOT, 0755);
	return 0;
}

void early_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
}
