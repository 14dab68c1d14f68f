/* udevdb: leave udev's database entries of the dm devices and md arrays
 * the boot assembled, and their /dev/mapper links, for the real root's udev.
 *
 * After switch_root the real root's udev replays an "add" event for every
 * device (systemd-udev-trigger). Debian 12's device-mapper rules (55-dm.rules,
 * lvm2's 10-dm.rules) take such an event for a real one only when the
 * device's database entry says DM_UDEV_PRIMARY_SOURCE_FLAG=1 (IMPORT{db});
 * without it they disable the device (DM_UDEV_DISABLE_OTHER_RULES_FLAG=1,
 * no /dev/mapper link, no blkid), and 99-systemd.rules then sets
 * SYSTEMD_READY=0: systemd never sees the volume, and an fstab swap or
 * mount on it waits 90 s and fails. Likewise 69-lvm.rules reads
 * LVM_MD_PV_ACTIVATED from an md array's entry and marks an array that holds
 * an LVM physical volume not ready without it. The entries are written as
 * systemd-udevd writes them (sd-device's format 1; docs/distributions.md
 * says which rule reads what). */
#ifndef LIFEBOAT_BLOCKSTACK_UDEVDB_H
#define LIFEBOAT_BLOCKSTACK_UDEVDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where udev keeps the entries (systemd's sd-device reads them there). */
#define UDEVDB_DIR "/run/udev/data"
#define UDEVDB_SYSBLOCK "/sys/class/block"
#define UDEVDB_PROPS_MAX 4

struct udevdb_entry {
	unsigned int major, minor;
	uint64_t usec;                           /* set up at: CLOCK_MONOTONIC, in µs */
	const char *props[UDEVDB_PROPS_MAX];     /* "KEY=VALUE" */
	size_t n_props;
};

/* Whether /dev/DEVNAME holds an LVM physical volume (libblkid's type). */
typedef bool (*udevdb_is_pv_fn)(const char *devname);

/* The entry's text as systemd-udevd writes it: "I:usec", one "E:KEY=VALUE"
 * a property, "V:1". Returns its length, or -ENOSPC when size is short. */
int udevdb_format(const struct udevdb_entry *e, char *buf, size_t size);
/* Write e to dir/bMAJOR:MINOR (dir made if missing) through a temporary
 * file and rename, so udev never reads half of it; mode 01644, the sticky
 * bit of udev's db_persist. Returns 0 or -errno. */
int udevdb_write(const char *dir, const struct udevdb_entry *e);
/* The entry the real root's rules need for block device devname, from its
 * sysfs attributes (/sys/class/block/DEVNAME): a dm device gets
 * device-mapper's flags; an active md array that is_pv says holds an LVM
 * physical volume gets LVM_MD_PV_ACTIVATED=1. Returns 1 with e filled, 0
 * when devname needs none, or -ENODEV when its device number cannot be
 * read. */
int udevdb_entry_for(const char *devname, udevdb_is_pv_fn is_pv, struct udevdb_entry *e);
/* /dev/mapper/NAME of dm device devname (e: its number) as udev makes it,
 * a symlink to ../dm-N, in place of the device node libdevmapper made
 * without udev: the real root's udev makes no link where a node is, so the
 * name would keep the number the device had at the boot. Only a node of
 * that very device is replaced. devdir is /dev. Returns 1 when replaced, 0
 * when there was nothing to do, or -errno. */
int udevdb_mapper_link(const char *devdir, const char *devname, const struct udevdb_entry *e);
/* Every block device of /sys/class/block that needs an entry gets one in
 * dir, and each dm device its /dev/mapper link under devdir. Returns how
 * many entries were written, or the first -errno with the device's name in
 * failed. */
int udevdb_leave(const char *dir, const char *devdir, udevdb_is_pv_fn is_pv, uint64_t usec,
		 char *failed, size_t failed_size);
/* udevdb_leave for this boot: into /run/udev/data, probed with
 * libblkid, stamped now. */
int udevdb_leave_stacks(char *failed, size_t failed_size);

#endif
