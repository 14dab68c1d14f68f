/* cmdline: the kernel command line as the init understands it (dracut's names). */
#ifndef LIFEBOAT_CMDLINE_H
#define LIFEBOAT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/layout.h"
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

/* The longest wait a *timeout= word may ask for, in seconds: a day. */
#define CMDLINE_TIMEOUT_MAX (24 * 3600)

enum root_rw { ROOT_RW_DEFAULT, ROOT_RW_RO, ROOT_RW_RW };

/* Each component is given only its own part of the command line: the
 * iSCSI credentials reach net/'s login and nothing else. */

/* The root filesystem (init/): root=, rootfstype=, rootflags=, ro/rw,
 * init=, rd.timeout=. net/ reads it too for an NFS or iSCSI root. */
struct root_args {
	char root[CMDLINE_VALUE_MAX];
	char fstype[CMDLINE_VALUE_MAX];
	char flags[CMDLINE_VALUE_MAX];
	char init[CMDLINE_VALUE_MAX];
	enum root_rw rw;
	unsigned int timeout_sec;     /* 0: wait forever */
};

/* Resume from hibernation (resume/, docs/resume.md). */
struct resume_args {
	char device[CMDLINE_VALUE_MAX];       /* resume=: the swap device */
	unsigned long long offset;            /* resume_offset=: pages into it (swap file) */
	bool noresume;
	unsigned int timeout_sec;             /* rd.resume.timeout= */
};

/* Rescue (rescue/, bootlib/shell.c): rd.shell, rd.break[=STAGE]. */
struct rescue_args {
	bool shell;                   /* a shell on failure (default on) */
	unsigned int break_stages;    /* STAGE_BIT()s */
};

/* The network (net/, docs/network.md). */
struct net_args {
	char ip[CMDLINE_VALUE_MAX];           /* ip=: the last one given */
	char bootdev[CMDLINE_VALUE_MAX];      /* bootdev=: the interface to use */
	char nfsroot[CMDLINE_VALUE_MAX];      /* nfsroot=, with root=/dev/nfs */
	char netroot[CMDLINE_VALUE_MAX];      /* netroot=nfs:..., netroot=iscsi:... */
	bool neednet;                         /* rd.neednet */
	unsigned int timeout_dhcp;            /* rd.net.timeout.dhcp=, seconds */
	unsigned int timeout_carrier;         /* rd.net.timeout.carrier=, seconds */
	unsigned int timeout_iflink;          /* rd.net.timeout.iflink=, seconds */
	struct strv netdevs;                  /* vlan=, bond=, bridge=, ifname= words, whole */
	char bootif[CMDLINE_VALUE_MAX];       /* BOOTIF=: the NIC the firmware booted from */
	bool bootif_ignored;                  /* rd.bootif=0 */
};

/* The SSH server of an image built with --ssh (remote/, docs/remote.md). */
#define CMDLINE_DEFAULT_SSH_PORT LAYOUT_SSH_DEFAULT_PORT
struct remote_args {
	bool ssh;                             /* rd.ssh=0 keeps the server off */
	unsigned int port;                    /* rd.ssh.port= */
};

/* An iSCSI root (net/iscsi.h, docs/iscsi.md); the credentials stay out of logs. */
struct iscsi_args {
	char initiator[CMDLINE_VALUE_MAX];    /* rd.iscsi.initiator= */
	char target_name[CMDLINE_VALUE_MAX];  /* rd.iscsi.target.name= */
	char target_ip[CMDLINE_VALUE_MAX];    /* rd.iscsi.target.ip= */
	char target_port[CMDLINE_VALUE_MAX];  /* rd.iscsi.target.port= */
	char target_group[CMDLINE_VALUE_MAX]; /* rd.iscsi.target.group= */
	char username[CMDLINE_VALUE_MAX];     /* rd.iscsi.username= */
	char password[CMDLINE_VALUE_MAX];     /* rd.iscsi.password= */
	char in_username[CMDLINE_VALUE_MAX];  /* rd.iscsi.in.username= */
	char in_password[CMDLINE_VALUE_MAX];  /* rd.iscsi.in.password= */
	bool firmware;                        /* rd.iscsi.firmware, rd.iscsi.ibft */
};

/* The check before mount (fsck/). Skipped by rd.fsck=0, fastboot,
 * rd.skipfsck (dracut) and fsck.mode=skip (systemd); forcefsck and
 * fsck.mode=force check a filesystem that says it is clean too. */
enum fsck_mode { FSCK_MODE_SKIP, FSCK_MODE_AUTO, FSCK_MODE_FORCE };

/* rd.driver.pre=, rd.driver.post=, rd.driver.blacklist= (init/), and the
 * modules' MODULE.PARAM=VALUE words in the order given, for the module
 * loader (bootlib/modparams.h). */
struct driver_args {
	struct strv pre;
	struct strv post;
	struct strv blacklist;
	struct strv params;
};

/* The console's keyboard layout (bootlib/vconsole.h): the name of a keymap
 * the image carries, rd.vconsole.keymap= (dracut's) or vconsole.keymap=
 * (systemd's); and its font (bootlib/vfont.h), rd.vconsole.font= or
 * vconsole.font=. */
struct vconsole_args {
	char keymap[CMDLINE_VALUE_MAX];
	char font[CMDLINE_VALUE_MAX];
};

struct boot_args {
	struct root_args root;
	struct resume_args resume;
	struct rescue_args rescue;
	struct net_args net;
	struct iscsi_args iscsi;
	struct remote_args remote;
	struct driver_args drivers;
	struct vconsole_args vconsole;
	enum fsck_mode fsck;
	bool debug;                   /* rd.debug */
	/* rd.luks*, rd.lvm*, rd.md* words as given, for blockstack/params.c */
	struct strv stack_params;
	/* The name of the first parameter whose value was refused, for the
	 * message (not the value: it may be a secret). */
	char bad_param[64];
};

/* Split a command line into words the way the kernel does: spaces separate
 * words, double quotes group (and are removed), so `a="b c"` is one word
 * a=b c. Appends to out. */
int cmdline_split(const char *line, struct strv *out);
/* Apply one command line (kernel or embedded) to args; later calls override
 * earlier ones, as the last occurrence of a parameter wins. */
int cmdline_parse(const char *line, struct boot_args *args);
void cmdline_args_init(struct boot_args *args);
void cmdline_args_free(struct boot_args *args);

#endif
