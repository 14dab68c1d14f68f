/* iscsi_args: rd.iscsi.*. */
#include "net/iscsi_args.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* rd.iscsi.param=NAME=VALUE, repeated: each is kept. */
static int set_param(void *args, const struct cmdline_word *w, const char *value)
{
	struct iscsi_args *a = args;

	(void)w;
	if (!value || !strchr(value, '=') || value[0] == '=')
		return -EINVAL;
	if (strlen(value) >= sizeof(a->params[0]))
		return -ENAMETOOLONG;
	if (a->n_params >= ISCSI_ARGS_PARAMS_MAX)
		return -E2BIG;
	strcpy(a->params[a->n_params++], value);
	return 0;
}

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
	{ "rd.iscsi.param",        set_param,          0 },
};
#undef F

struct cmdline_owner iscsi_args_cmdline(struct iscsi_args *a)
{
	return (struct cmdline_owner){ "iscsi", words, CMDLINE_N(words), a, NULL };
}
