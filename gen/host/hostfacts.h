/* hostfacts: everything a host-only build reads of the build host, read once.
 *
 * The module choice, the block-stack tools, the checker, the network and
 * iSCSI parts and the resume setting all decide from this one reading, so
 * they agree with each other and the host is not walked again per feature.
 */
#ifndef LIFEBOAT_HOSTFACTS_H
#define LIFEBOAT_HOSTFACTS_H

#include <stdbool.h>

#include "common/strv.h"
#include "gen/host/hostonly.h"
#include "gen/host/kbdhost.h"
#include "gen/host/resumehost.h"

struct host_facts {
	/* sysfs and mountinfo: the devices, the root's path and block stack,
	 * and the block stack under the resume device. */
	struct host_scan stack;
	struct resume_host resume;  /* valid when resume_status is 0 */
	int resume_status;          /* 0, -ENOENT (the host has none) or -errno */
	bool root_nfs;              /* "/" is mounted over NFS */
	bool iscsi_session;         /* an iSCSI session is logged in (the root may be on it) */
	bool nvmf_tcp;              /* an NVMe controller is connected over TCP (gen/host/nvmfhost.h) */
	struct strv nic_drivers;    /* the module of each network device's driver,
	                             * and of each bond, bridge or VLAN (8021q) */
	bool nics_listed;           /* false: /sys/class/net could not be read */
	struct kbd_host keyboard;   /* the console layout and font (gen/host/kbdhost.h) */
	int keyboard_status;        /* 0, or -ENOENT: the host names none */
	/* A container of the stack is bound to Tang (gen/host/tanghost.h,
	 * filled after the read: it runs the build's lifeboat-clevis). */
	bool root_tang;        /* a clevis binding names a Tang server (tang_url) */
	bool root_clevis;      /* a clevis binding of a pin lifeboat-clevis knows */
	bool root_clevis_tpm;  /* one that may have a tpm2 share (pin tpm2 or sss) */
	char tang_url[400];
};

/* Read the host under root ("" for the build host itself, a directory
 * laid out like it for tests): sysfs at ROOT/sys, ROOT/proc/self/mountinfo,
 * ROOT/proc/mounts, the resume device (gen/host/resumehost.h),
 * ROOT/sys/class/iscsi_session, ROOT/sys/class/net and the keyboard layout
 * (ROOT/etc/vconsole.conf, ROOT/etc/default/keyboard). Returns 0 or -errno
 * for what made the scan impossible (reported); the facts are then freed. */
int hostfacts_read(struct host_facts *h, const char *root);
/* Add the block stack under the device spec names (UUID=, LABEL=, ...,
 * a /dev path or MAJ:MIN) to h->stack: its containers, arrays and
 * modules. Returns 0, -ENOENT when no such block device is there, or
 * -ENOMEM. */
int hostfacts_add_device(struct host_facts *h, const char *root, const char *spec);
void hostfacts_free(struct host_facts *h);

#endif
