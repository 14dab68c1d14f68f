/* iscsi_args: rd.iscsi.*. */
#include "net/iscsi_args.h"

#include <stddef.h>

#define F(f) offsetof(struct iscsi_args, f)
static const struct cmdline_word words[] = {
	{ "rd.iscsi.initiator",    cmdline_set_string, F(initiator) },
	{ "rd.iscsi.target.name",  cmdline_set_string, F(target_name) },
	{ "rd.iscsi.target.ip",    cmdline_set_string, F(target_ip) },
	{ "rd.iscsi.target.port",  cmdline_set_string, F(target_port) },
	{ "rd.iscsi.target.group", cmdline_set_string, F(target_group) },
	{ "rd.iscsi.username",     cmdline_set_string, F(username) },
	{ "rd.iscsi.password",     cmdline_set_string, F(password) },
	{ "rd.iscsi.in.username",  cmdline_set_string, F(in_username) },
	{ "rd.iscsi.in.password",  cmdline_set_string, F(in_password) },
	{ "rd.iscsi.firmware",     cmdline_set_flag,   F(firmware) },
	{ "rd.iscsi.ibft",         cmdline_set_flag,   F(firmware) },
};
#undef F

struct cmdline_owner iscsi_args_cmdline(struct iscsi_args *a)
{
	return (struct cmdline_owner){ "iscsi", words, CMDLINE_N(words), a, NULL };
}
