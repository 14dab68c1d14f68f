/* remote_args: the words of the SSH server of an image built with --ssh
 * (remote/, docs/remote.md). */
#ifndef LIFEBOAT_REMOTE_ARGS_H
#define LIFEBOAT_REMOTE_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"
#include "common/layout.h"

struct remote_args {
	bool ssh;                             /* rd.ssh=0 keeps the server off */
	unsigned int port;                    /* rd.ssh.port= */
};

void remote_args_init(struct remote_args *a);
struct cmdline_owner remote_args_cmdline(struct remote_args *a);

#endif
