/* kernel: which kernel an image is for, and where its modules are. */
#ifndef LIFEBOAT_KERNEL_H
#define LIFEBOAT_KERNEL_H

#include <stddef.h>

#include "common/strv.h"

/* Find the modules directory (the one holding modules.dep) for kver, in
 * kmoddir when given (an INSTALL_MOD_PATH, a lib/modules directory, or the
 * versioned directory itself), else in /lib/modules and /usr/lib/modules.
 * kver may be NULL: the running kernel's, or with kmoddir, the only version
 * the tree holds. Writes both out; reports what is missing and returns
 * -ENOENT. */
int kernel_find(const char *kver, const char *kmoddir, char *kver_out, size_t kver_size,
		char *moddir_out, size_t moddir_size);

/* Every kernel version with a modules tree (modules.dep): under kmoddir's
 * lib/modules and usr/lib/modules when given, else the host's; each once
 * (a merged /usr shows them twice), sorted. Returns 0 or -ENOMEM; none
 * found is not an error. */
int kernel_list(const char *kmoddir, struct strv *versions);

#endif
