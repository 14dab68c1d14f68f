/* multicall: the init binary run under another name. */
#include "init/multicall.h"

#include <string.h>

#include "common/layout.h"
#include "init/bootargs.h"
#include "rescue/modprobe.h"

int multicall_run(int argc, char **argv)
{
	static struct boot_args args;
	const char *base;

	if (argc < 1 || !argv[0])
		return -1;
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strcmp(base, LAYOUT_MODPROBE_NAME) != 0)
		return -1;
	/* The image's /etc/cmdline.d and the kernel's words, as the boot read
	 * them: rd.driver.blacklist= and MODULE.PARAM=VALUE apply here too. */
	bootargs_init(&args);
	bootargs_load(&args);
	return modprobe_main(argc, argv, &args.drivers);
}
