/* modsets: which modules make up the generic set (a boot on any machine). */
#ifndef LIFEBOAT_MODSETS_H
#define LIFEBOAT_MODSETS_H

#include <stdbool.h>

/* Whether the module file at relpath (relative to the module directory, e.g.
 * "kernel/drivers/ata/ahci.ko.xz") lies in one of the generic set's trees. */
bool modsets_generic_path(const char *relpath);
/* Whether module `name` (normalised: '_' not '-') is one of the generic set's
 * modules named one by one. */
bool modsets_generic_name(const char *name);
/* The modules named one by one (NULL-terminated); those a kernel does not
 * have are skipped without a word: the list covers many kernels. */
extern const char *const modsets_generic_names[];

#endif
