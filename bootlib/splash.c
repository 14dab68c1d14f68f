/* splash: plymouth in the image: what plymouthd needs of the boot (its
 * cards' udev entries, /dev/pts), and asking it whether it runs and to
 * quit. */
#include "bootlib/splash.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "bootlib/run.h"
#include "common/filewrite.h"

/* A ping or a quit that plymouthd does not answer in this time is given up:
 * the boot must not wait on it. */
#define SPLASH_CLIENT_MS 3000

/* Whether the image has plymouthd (splash_prepare found it). */
static bool daemon_here;
/* plymouth.ignore-serial-consoles, as splash_prepare was told. */
static bool serial_ignored;

/* "12": one or more decimal digits and nothing else. */
static bool all_digits(const char *s)
{
	return *s && s[strspn(s, "0123456789")] == '\0';
}

bool splash_is_card(const char *subsystem, const char *devname)
{
	return subsystem && devname && strcmp(subsystem, "drm") == 0 &&
	       strncmp(devname, "dri/card", 8) == 0 && all_digits(devname + 8);
}

int splash_db_text(uint64_t usec, char *buf, size_t size)
{
	int n = snprintf(buf, size, "I:%" PRIu64 "\nG:seat\nQ:seat\nV:1\n", usec);

	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}

bool splash_owns_console(const char *name, bool ignore_serial)
{
	/* tty0, tty1, ...: the virtual terminals */
	if (strncmp(name, "tty", 3) == 0 && all_digits(name + 3))
		return true;
	return !ignore_serial;
}

void splash_prepare(bool ignore_serial)
{
	serial_ignored = ignore_serial;
	if (access(SPLASH_DAEMON, X_OK) < 0)
		return;
	/* plymouthd --attach-to-session takes a pseudo-terminal for the
	 * console's messages; initramfs-tools' init mounts /dev/pts too. */
	mkdir("/dev/pts", 0755);
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		  "gid=5,mode=620,ptmxmode=666") < 0 && errno != EBUSY)
		log_warn("mounting /dev/pts failed (%s): plymouthd will not start", strerror(errno));
	mkdir("/run/udev", 0755);
	mkdir(SPLASH_UDEV_DATA, 0755);
	daemon_here = true;
}

/* "/run/udev/data/cMAJ:MIN" of /dev/devname, from the node devtmpfs made. */
static int card_entry_path(const char *devname, char *path, size_t size)
{
	char node[64];
	struct stat st;

	snprintf(node, sizeof(node), "/dev/%s", devname);
	if (stat(node, &st) < 0)
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENODEV;
	snprintf(path, size, "%s/c%u:%u", SPLASH_UDEV_DATA, major(st.st_rdev), minor(st.st_rdev));
	return 0;
}

void splash_uevent(const char *action, const char *subsystem, const char *devname)
{
	char path[96], text[64];

	if (!daemon_here || !action || strcmp(action, "add") != 0 ||
	    !splash_is_card(subsystem, devname))
		return;
	if (card_entry_path(devname, path, sizeof(path)) == 0 &&
	    splash_db_text(clock_now_ms() * 1000, text, sizeof(text)) > 0 &&
	    file_write_text(path, text, O_TRUNC | O_NOFOLLOW) < 0)
		log_warn("writing udev's entry %s failed: plymouth will not draw on /dev/%s",
			 path, devname);
}

/* `plymouth ARG`, bounded; its exit status or -errno. */
static int client(const char *arg)
{
	const char *argv[] = { SPLASH_CLIENT, arg, NULL };
	char out[256];

	if (access(SPLASH_CLIENT, X_OK) < 0)
		return -ENOENT;
	return run_tool_bounded((char *const *)argv, NULL, NULL, 0, out, sizeof(out),
				SPLASH_CLIENT_MS);
}

bool splash_running(void)
{
	return client("--ping") == 0;
}

bool splash_ignores_serial(void)
{
	return serial_ignored;
}

void splash_quit(void)
{
	if (splash_running() && client("quit") == 0)
		log_info("plymouth quit: the console is the rescue's");
}
