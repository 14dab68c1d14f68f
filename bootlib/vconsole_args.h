/* vconsole_args: the console's keyboard layout (bootlib/vconsole.h), the
 * name of a keymap the image carries, rd.vconsole.keymap= (dracut's) or
 * vconsole.keymap= (systemd's); and its font (bootlib/vfont.h),
 * rd.vconsole.font= or vconsole.font=; and whether plymouth leaves the
 * serial consoles to lifeboat's prompts (bootlib/splash.h), plymouth's own
 * plymouth.ignore-serial-consoles. */
#ifndef LIFEBOAT_VCONSOLE_ARGS_H
#define LIFEBOAT_VCONSOLE_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"

struct vconsole_args {
	char keymap[CMDLINE_VALUE_MAX];
	char font[CMDLINE_VALUE_MAX];
	bool splash_ignore_serial;
};

struct cmdline_owner vconsole_args_cmdline(struct vconsole_args *a);

#endif
