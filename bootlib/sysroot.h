/* sysroot: where the real root is mounted before switch_root. */
#ifndef LIFEBOAT_BOOTLIB_SYSROOT_H
#define LIFEBOAT_BOOTLIB_SYSROOT_H

#include <stdbool.h>

#define SYSROOT "/sysroot"

/* Whether a filesystem is mounted on SYSROOT: by init/'s mount, net/'s NFS
 * mount, an earlier try, or by hand in the rescue shell. */
bool sysroot_is_mounted(void);

#endif
