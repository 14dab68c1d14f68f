/* remote_args: rd.ssh, rd.ssh.port=. */
#include "remote/remote_args.h"

#include <stddef.h>

static const struct cmdline_word words[] = {
	{ "rd.ssh",      cmdline_set_flag, offsetof(struct remote_args, ssh) },
	{ "rd.ssh.port", cmdline_set_port, offsetof(struct remote_args, port) },
};

void remote_args_init(struct remote_args *a)
{
	a->ssh = true;
	a->port = LAYOUT_SSH_DEFAULT_PORT;
}

struct cmdline_owner remote_args_cmdline(struct remote_args *a)
{
	return (struct cmdline_owner){ "remote", words, CMDLINE_N(words), a, NULL };
}
