/* iscsi_lun: the session and the LUN disks the kernel made for a target (sysfs). */
#ifndef LIFEBOAT_NET_ISCSI_LUN_H
#define LIFEBOAT_NET_ISCSI_LUN_H

#include <stdbool.h>
#include <stddef.h>

#define ISCSI_SESSION_CLASS "/sys/class/iscsi_session"

/* Whether a session to target_name is up; its directory name ("session1")
 * goes to session. class is ISCSI_SESSION_CLASS (a test's tree otherwise). */
bool iscsi_lun_session(const char *class, const char *target_name, char *session, size_t size);
/* The block device of the session's LUN (any LUN with a disk when
 * lun_given is false, the lowest first), as "sda", in dev.
 * Returns 0 or -ENOENT (not there yet). */
int iscsi_lun_disk(const char *class, const char *session, bool lun_given,
		   unsigned long long lun, char *dev, size_t size);

#endif
