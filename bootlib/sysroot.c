/* sysroot: where the real root is mounted before switch_root. */
#include "bootlib/sysroot.h"

#include <sys/stat.h>

/* A mount point lies on another device than its parent. */
bool sysroot_is_mounted(void)
{
	struct stat root, sysroot;

	return stat("/", &root) == 0 && stat(SYSROOT, &sysroot) == 0 &&
	       root.st_dev != sysroot.st_dev;
}
