/* vconsole_args: rd.vconsole.keymap=, rd.vconsole.font= and systemd's
 * names; plymouth.ignore-serial-consoles. */
#include "bootlib/vconsole_args.h"

#include <stddef.h>

#include "bootlib/splash.h"

static const struct cmdline_word words[] = {
	{ "rd.vconsole.keymap", cmdline_set_string, offsetof(struct vconsole_args, keymap) },
	{ "vconsole.keymap",    cmdline_set_string, offsetof(struct vconsole_args, keymap) },
	{ "rd.vconsole.font",   cmdline_set_string, offsetof(struct vconsole_args, font) },
	{ "vconsole.font",      cmdline_set_string, offsetof(struct vconsole_args, font) },
	{ SPLASH_IGNORE_SERIAL, cmdline_set_flag,   offsetof(struct vconsole_args, splash_ignore_serial) },
};

struct cmdline_owner vconsole_args_cmdline(struct vconsole_args *a)
{
	return (struct cmdline_owner){ "vconsole", words, CMDLINE_N(words), a, NULL };
}
