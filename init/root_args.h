/* root_args: the root filesystem's words, the init's own: root=,
 * rootfstype=, rootflags=, init=, ro/rw, rd.timeout=, and systemd's words
 * of a /usr of its own, mount.usr=, mount.usrfstype=, mount.usrflags=
 * (init/usrmount.c says what they mean). init/boot_plan.c reads
 * root= once into the root's kind (and net/'s part of it). */
#ifndef LIFEBOAT_ROOT_ARGS_H
#define LIFEBOAT_ROOT_ARGS_H

#include "bootlib/cmdline.h"

/* rd.timeout default, in seconds, when the command line names none: a
 * missing root ends in a diagnosis instead of a silent hang (dracut waits
 * forever by default; rd.timeout=0 keeps that behaviour). */
#define ROOT_DEFAULT_TIMEOUT 180

enum root_rw { ROOT_RW_DEFAULT, ROOT_RW_RO, ROOT_RW_RW };

struct root_args {
	char root[CMDLINE_VALUE_MAX];
	char fstype[CMDLINE_VALUE_MAX];
	char flags[CMDLINE_VALUE_MAX];
	char init[CMDLINE_VALUE_MAX];
	char usr[CMDLINE_VALUE_MAX];
	char usr_fstype[CMDLINE_VALUE_MAX];
	char usr_flags[CMDLINE_VALUE_MAX];
	enum root_rw rw;
	unsigned int timeout_sec;     /* 0: wait forever */
};

void root_args_init(struct root_args *a);
struct cmdline_owner root_args_cmdline(struct root_args *a);

#endif
