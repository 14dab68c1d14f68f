/* iscsi_args: the words of an iSCSI root (net/iscsi.h, docs/iscsi.md); the
 * credentials stay out of logs and are wiped after the login. */
#ifndef LIFEBOAT_ISCSI_ARGS_H
#define LIFEBOAT_ISCSI_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"

#define ISCSI_ARGS_PARAMS_MAX 8

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
	/* rd.iscsi.param=NAME=VALUE, each given to iscsistart as -P (dracut's
	 * word: open-iscsi's node settings, as in iscsid.conf), in order. */
	char params[ISCSI_ARGS_PARAMS_MAX][CMDLINE_VALUE_MAX];
	unsigned int n_params;
};

/* a starts zeroed. */
struct cmdline_owner iscsi_args_cmdline(struct iscsi_args *a);

#endif
