/* switchroot: leave the initramfs for the real root and exec its init. */
#ifndef LIFEBOAT_SWITCHROOT_H
#define LIFEBOAT_SWITCHROOT_H

#include <stddef.h>

/* Only returns on failure: -errno, with why saying which step failed
 * ("moving the new root over /", ...). argv[0] is replaced by init. */
int switch_root(const char *newroot, const char *init, char *const argv[],
		char *why, size_t why_size);
/* Whether init (a path inside newroot) is an executable file there. */
int switch_root_check_init(const char *newroot, const char *init);

#endif
