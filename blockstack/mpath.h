/* mpath: group the paths of a multipath SAN LUN into one dm-multipath map
 * before anything is assembled on it or mounted from it.
 *
 * Each path of a LUN is a whole SCSI disk with the same WWID (its VPD page
 * 0x83, common/vpd83.h), and shows the same filesystem, LUKS or LVM UUID:
 * the root must mount on the map, never on one path. So every whole disk
 * that appears is read first; a claimed one (and its partitions) is kept
 * from the root's matcher (bootlib/devwait.h) and from the LUKS, LVM and md
 * assemblers, and multipath-tools' own `multipath` groups the paths
 * (run again for each further path: it reloads the map with it), then
 * kpartx maps the map's partitions.
 *
 * The claim: a host-only image (with the host's /etc/multipath/wwids) claims
 * the WWIDs listed there, as find_multipaths strict does; with
 * rd.multipath=default a disk is held until a second path of its WWID
 * appears (then both are claimed) or it has waited its bound (then it is
 * released as a plain disk): multipath.conf's find_multipaths_timeout
 * (multipath-tools' wait for a further path, find_multipaths smart), else
 * MPATH_HOLD_MS; released too when the devices settle before. rd.multipath=0 (nompath, multipath=off)
 * claims nothing. There is no udevd: `multipath` lists only disks that
 * have a udev database entry, so one is written for each (I:, V:1, and no
 * ID_SERIAL: the WWID then comes from the same VPD page, libmultipath's
 * sysfs fallback). */
#ifndef LIFEBOAT_BLOCKSTACK_MPATH_H
#define LIFEBOAT_BLOCKSTACK_MPATH_H

#include <stdbool.h>
#include <stddef.h>

/* rd.multipath=: not given, 0 (also nompath, multipath=off,
 * rd_NO_MULTIPATH), default. */
enum mpath_word {
	MPATH_WORD_NONE,
	MPATH_WORD_OFF,
	MPATH_WORD_DEFAULT,
};

/* How long a lone path is held for a second one when multipath.conf does
 * not say (find_multipaths_timeout): the boot's quiet period
 * (bootlib/evloop.h), so a LUN with one path costs the boot no more than
 * a quiet period did before multipath. */
#define MPATH_HOLD_MS 5000

/* How paths are claimed in this boot. */
enum mpath_mode {
	MPATH_OFF,       /* no multipath in the image, or turned off */
	MPATH_STRICT,    /* the WWIDs of the image's /etc/multipath/wwids */
	MPATH_DEFAULT,   /* rd.multipath=default: two paths of one WWID */
};

/* The mode from the word and what the image holds (root: "/" at boot, a
 * directory in tests). Returns the mode, which mpath_setup takes. */
enum mpath_mode mpath_mode_for(enum mpath_word word, const char *root);
/* find_multipaths_timeout of a multipath.conf's text, in ms: N seconds,
 * or -N (multipath-tools: for hardware it knows; lifeboat takes N for
 * all); -1 when the text sets none (or 0, or no number). */
long mpath_conf_hold_ms(const char *text);
/* Whether the wwids file's text (multipath's format: one "/WWID/" a line,
 * '#' comments) lists wwid. */
bool mpath_wwids_has(const char *text, const char *wwid);

/* Start claiming for this boot (mpath_mode_for(word, "/")). */
void mpath_setup(enum mpath_word word);
/* A block device appeared or changed. Returns true when it is a claimed or
 * held path, or a partition of one: nothing else may take it. */
bool mpath_device_added(const char *devname);
/* Whether devname is a claimed or held path or a partition of one (the
 * root's matcher asks). */
bool mpath_skip(const char *devname);
/* The devices settled: held paths whose LUN showed one path are released
 * as plain disks (a "change" event offers them again). A held path whose
 * bound passed is released as well at the next device offered. */
void mpath_settled(void);

#endif
