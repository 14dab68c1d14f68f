/* cmdline: the kernel command line as the init understands it (dracut's names). */
#ifndef LIFEBOAT_CMDLINE_H
#define LIFEBOAT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/strv.h"

#define CMDLINE_MAX 4096
#define CMDLINE_VALUE_MAX 256

/* rd.timeout default, in seconds, when the command line names none: a
 * missing root ends in a diagnosis instead of a silent hang (dracut waits
 * forever by default; rd.timeout=0 keeps that behaviour). */
#define CMDLINE_DEFAULT_TIMEOUT 180

/* rd.resume.timeout default: a swap that is missing or slow must not stall
 * a normal boot for long. */
#define CMDLINE_DEFAULT_RESUME_TIMEOUT 5

enum root_rw { ROOT_RW_DEFAULT, ROOT_RW_RO, ROOT_RW_RW };

struct boot_args {
	char root[CMDLINE_VALUE_MAX];
	char rootfstype[CMDLINE_VALUE_MAX];
	char rootflags[CMDLINE_VALUE_MAX];
	char init[CMDLINE_VALUE_MAX];
	enum root_rw rw;
	unsigned int timeout_sec;     /* 0: wait forever */
	bool debug;
	bool shell;                   /* rd.shell: a shell on failure (default on) */
	unsigned int break_stages;    /* rd.break[=STAGE]: STAGE_BIT()s */
	/* Resume from hibernation (docs/resume.md): */
	char resume[CMDLINE_VALUE_MAX];       /* resume=: the swap device */
	unsigned long long resume_offset;     /* resume_offset=: pages into it (swap file) */
	bool noresume;
	unsigned int resume_timeout_sec;      /* rd.resume.timeout= */
	/* Network and NFS root (docs/network.md): */
	char ip[CMDLINE_VALUE_MAX];           /* ip=: the last one given */
	char bootdev[CMDLINE_VALUE_MAX];      /* bootdev=: the interface to use */
	char nfsroot[CMDLINE_VALUE_MAX];      /* nfsroot=, with root=/dev/nfs */
	char netroot[CMDLINE_VALUE_MAX];      /* netroot=nfs:... */
	bool neednet;                         /* rd.neednet */
	unsigned int net_timeout_dhcp;        /* rd.net.timeout.dhcp=, seconds */
	unsigned int net_timeout_carrier;     /* rd.net.timeout.carrier=, seconds */
	/* iSCSI root (docs/network.md, net/iscsi.h); credentials stay out of logs: */
	char iscsi_initiator[CMDLINE_VALUE_MAX];    /* rd.iscsi.initiator= */
	char iscsi_target_name[CMDLINE_VALUE_MAX];  /* rd.iscsi.target.name= */
	char iscsi_target_ip[CMDLINE_VALUE_MAX];    /* rd.iscsi.target.ip= */
	char iscsi_target_port[CMDLINE_VALUE_MAX];  /* rd.iscsi.target.port= */
	char iscsi_target_group[CMDLINE_VALUE_MAX]; /* rd.iscsi.target.group= */
	char iscsi_username[CMDLINE_VALUE_MAX];     /* rd.iscsi.username= */
	char iscsi_password[CMDLINE_VALUE_MAX];     /* rd.iscsi.password= */
	char iscsi_in_username[CMDLINE_VALUE_MAX];  /* rd.iscsi.in.username= */
	char iscsi_in_password[CMDLINE_VALUE_MAX];  /* rd.iscsi.in.password= */
	bool iscsi_firmware;                        /* rd.iscsi.firmware, rd.iscsi.ibft */
	struct strv driver_pre;
	struct strv driver_post;
	struct strv driver_blacklist;
	/* rd.luks*, rd.lvm*, rd.md*, rd.fsck, fastboot, forcefsck, rd.skipfsck, fsck.mode
	 * words as given, for blockstack/params.c */
	struct strv stack_params;
};

/* Split a command line into words the way the kernel does: spaces separate
 * words, double quotes group (and are removed), so `a="b c"` is one word
 * a=b c. Appends to out. */
int cmdline_split(const char *line, struct strv *out);
/* Apply one command line (kernel or embedded) to args; later calls override
 * earlier ones, as the last occurrence of a parameter wins. */
int cmdline_parse(const char *line, struct boot_args *args);
void boot_args_init(struct boot_args *args);
void boot_args_free(struct boot_args *args);
/* Forget the CHAP secrets once the iSCSI login is done (the kernel keeps
 * the session's): rd.iscsi.password=, rd.iscsi.in.password= and
 * USER:PASSWORD@ of root=/netroot=iscsi: are wiped. */
void boot_args_drop_secrets(struct boot_args *args);

#endif
