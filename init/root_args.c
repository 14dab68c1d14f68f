/* root_args: root=, rootfstype=, rootflags=, init=, ro, rw, rd.timeout=,
 * mount.usr=, mount.usrfstype=, mount.usrflags=. */
#include "init/root_args.h"

#include <stddef.h>
#include <string.h>

static int set_ro(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	(void)value;
	((struct root_args *)args)->rw = ROOT_RW_RO;
	return 0;
}

static int set_rw(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	(void)value;
	((struct root_args *)args)->rw = ROOT_RW_RW;
	return 0;
}

#define F(f) offsetof(struct root_args, f)
static const struct cmdline_word words[] = {
	{ "root",       cmdline_set_string,  F(root) },
	{ "rootfstype", cmdline_set_string,  F(fstype) },
	{ "rootflags",  cmdline_set_string,  F(flags) },
	{ "init",       cmdline_set_string,  F(init) },
	{ "ro",         set_ro,              0 },
	{ "rw",         set_rw,              0 },
	{ "rd.timeout", cmdline_set_seconds, F(timeout_sec) },
	{ "mount.usr",       cmdline_set_string, F(usr) },
	{ "mount.usrfstype", cmdline_set_string, F(usr_fstype) },
	{ "mount.usrflags",  cmdline_set_string, F(usr_flags) },
};
#undef F

void root_args_init(struct root_args *a)
{
	memset(a, 0, sizeof(*a));
	a->timeout_sec = ROOT_DEFAULT_TIMEOUT;
}

struct cmdline_owner root_args_cmdline(struct root_args *a)
{
	return (struct cmdline_owner){ "root", words, CMDLINE_N(words), a, NULL };
}
