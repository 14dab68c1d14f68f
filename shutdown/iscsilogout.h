/* iscsilogout: the way out's last block step: every iSCSI session left
 * (the root's LUN, logged in by iscsistart at boot) is logged out, after
 * the filesystems on it are unmounted and the layers above it are down,
 * while the network is still up. No tool is needed: the kernel's iSCSI
 * netlink interface (shutdown/iscsinl.h) does what iscsid would, in the
 * same order: the session's SCSI devices are removed (their caches
 * flushed over the live connection), the target gets a Logout Request and
 * its Logout Response is waited for, then the connection is stopped and
 * the connection and the session are destroyed. Each wait is bounded; a
 * target that does not answer gets its connection closed without it. */
#ifndef LIFEBOAT_SHUTDOWN_ISCSILOGOUT_H
#define LIFEBOAT_SHUTDOWN_ISCSILOGOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISCSILOGOUT_SESSION_MAX 16
#define ISCSILOGOUT_CONN_MAX 4

struct iscsilogout_session {
	uint32_t sid;                       /* session<sid> */
	char target[224];                   /* its targetname */
	char portal[80];                    /* ADDRESS:PORT of its first connection */
	size_t n_conns;
	uint32_t cids[ISCSILOGOUT_CONN_MAX];  /* connection<sid>:<cid> */
};

struct iscsilogout_set {
	size_t len;
	struct iscsilogout_session sessions[ISCSILOGOUT_SESSION_MAX];
};

/* Read the sessions and their connections from sysfs (sys is "/sys"). No iSCSI class (no session ever made) is an empty set.
 * Returns 0 or -errno. */
int iscsilogout_scan(const char *sys, struct iscsilogout_set *out);

/* Whether a disk of session sid is in use: every block device under the
 * session in sysfs (device/targetH:C:T/H:C:T:L/block/NAME), read when the
 * logout is decided, whatever their number, is asked busy(NAME). Returns
 * 1 with the first busy one's name in name, or 0 when none is busy. */
int iscsilogout_busy_disk(const char *sys, uint32_t sid, bool (*busy)(const char *disk),
			  char *name, size_t size);

/* The tcp transport's handle from sysfs, into *handle. 0 or -errno. */
int iscsilogout_transport_handle(const char *sys, uint64_t *handle);

/* Log out of every session that nothing uses any more; each is logged.
 * Returns how many are left (a disk still in use, a step the kernel
 * refused), or -errno when /sys cannot be read. */
int iscsilogout_run(void);

#endif
