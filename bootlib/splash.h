/* splash: plymouth in the image, as Debian's plymouth package puts it there
 * (its initramfs-tools hook and boot scripts, run by the bridge:
 * docs/initramfs-tools.md; what lifeboat does for it: docs/blockstacks.md,
 * "Plymouth").
 *
 * plymouthd finds its graphics cards through libudev: a DRM card is taken
 * only when it has a udev database entry (an initialized device) with the
 * tag "seat", which udevd writes under initramfs-tools. The image has no
 * udevd (lifeboat's init follows the kernel's events itself), so, when the
 * image has plymouthd, the init writes that entry for each DRM card that
 * appears, and mounts /dev/pts, which plymouthd --attach-to-session needs
 * and initramfs-tools' init mounts. plymouthd, started by the package's
 * init-premount script before the devices are probed, then takes the card
 * when it looks again (its DeviceTimeout, 8 s: it hears no udev events). */
#ifndef LIFEBOAT_BOOTLIB_SPLASH_H
#define LIFEBOAT_BOOTLIB_SPLASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPLASH_DAEMON "/usr/sbin/plymouthd"
#define SPLASH_CLIENT "/usr/bin/plymouth"
/* Where libudev reads whether a device is initialized, and its tags. */
#define SPLASH_UDEV_DATA "/run/udev/data"
/* plymouth's own word: leave the serial consoles alone (without it, a
 * serial console makes plymouth draw text on every console). */
#define SPLASH_IGNORE_SERIAL "plymouth.ignore-serial-consoles"

/* Whether a uevent's device is a DRM card plymouth draws on
 * (SUBSYSTEM=drm, DEVNAME=dri/cardN; not a render node or connector). */
bool splash_is_card(const char *subsystem, const char *devname);
/* The database entry of an initialized device of seat "seat", as
 * systemd-udevd writes it ("I:usec", the tag as "G:" and "Q:", "V:1").
 * Returns its length or -ENOSPC. */
int splash_db_text(uint64_t usec, char *buf, size_t size);
/* Whether plymouth takes the console name (a /sys/class/tty/console/active
 * word: "tty0", "ttyS0") for itself, reading its keys there: the virtual
 * terminals always; the others unless ignore_serial. */
bool splash_owns_console(const char *name, bool ignore_serial);

/* At the start of the boot, when the image has plymouthd: /dev/pts and
 * /run/udev/data. ignore_serial: the command line has SPLASH_IGNORE_SERIAL
 * (bootlib/vconsole_args.c declares the word). */
void splash_prepare(bool ignore_serial);
/* A uevent: a DRM card that appeared gets its database entry (when the
 * image has plymouthd). */
void splash_uevent(const char *action, const char *subsystem, const char *devname);

/* Whether plymouthd runs and answers (`plymouth --ping`). */
bool splash_running(void);
/* Whether plymouth leaves the serial consoles alone this boot
 * (SPLASH_IGNORE_SERIAL, as splash_prepare was told). */
bool splash_ignores_serial(void);
/* Tell plymouthd to quit (`plymouth quit`), when it runs: before the
 * rescue, whose messages and shell must reach the console. */
void splash_quit(void);

#endif
