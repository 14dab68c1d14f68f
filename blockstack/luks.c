/* luks: ask for a passphrase and run cryptsetup open, with bounded tries. */
#include "luks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "init/log.h"
#include "rescue/console.h"
#include "run.h"

#define CRYPTSETUP "/usr/sbin/cryptsetup"
/* cryptsetup's exit status for a refused passphrase (cryptsetup(8)). */
#define CRYPTSETUP_EXIT_BAD_PASSPHRASE 2

int luks_open_key(const char *devname, const char *name, const void *key, size_t len,
		  char *out, size_t size)
{
	char dev[96];
	char *argv[] = { CRYPTSETUP, "open", "--type", "luks", "--key-file=-", dev,
			 (char *)name, NULL };
	int r;

	snprintf(dev, sizeof(dev), "/dev/%s", devname);
	r = run_tool(argv, key, len, out, size);
	if (r == CRYPTSETUP_EXIT_BAD_PASSPHRASE)
		return -EACCES;
	return r > 0 ? -EIO : r;
}

/* One try: prompt, read with echo off, open. */
static int try_once(int fd, const char *devname, const char *uuid, const char *name, int attempt)
{
	char pw[512], out[1024];
	int len, r;

	dprintf(fd, "\nlifeboat: /dev/%s is encrypted (LUKS UUID=%s; opens as /dev/mapper/%s).\n"
		"Passphrase (try %d of %d): ", devname, uuid, name, attempt, LUKS_TRIES);
	len = console_read_line(fd, pw, sizeof(pw), true);
	dprintf(fd, "\n");
	if (len < 0) {
		explicit_bzero(pw, sizeof(pw));
		return len;
	}
	r = luks_open_key(devname, name, pw, (size_t)len, out, sizeof(out));
	explicit_bzero(pw, sizeof(pw));
	if (r == 0)
		return 0;
	if (r == -EACCES) {
		dprintf(fd, "lifeboat: the passphrase does not open /dev/%s (UUID=%s).\n",
			devname, uuid);
		return -EACCES;
	}
	log_error("cryptsetup could not open /dev/%s (UUID=%s) as %s: %s; check "
		  "the image has dm-crypt and the cipher's modules", devname, uuid, name, out);
	return r;
}

int luks_unlock(const char *devname, const char *uuid, const char *name)
{
	char tty[64];
	int fd, r = -EACCES;

	console_tty_path(tty, sizeof(tty));
	fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	console_make_sane(fd);
	for (int attempt = 1; attempt <= LUKS_TRIES && r == -EACCES; attempt++)
		r = try_once(fd, devname, uuid, name, attempt);
	if (r == -EACCES)
		dprintf(fd, "lifeboat: no passphrase opened /dev/%s (UUID=%s) in %d tries; "
			"the devices on it stay locked.\n", devname, uuid, LUKS_TRIES);
	close(fd);
	return r;
}
