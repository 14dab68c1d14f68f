/* hookspec: what the generator and the init agree on about hooks
 * (docs/extending.md): the stages a boot script may be installed for, and
 * which files may run at all.
 *
 * A boot script requested for STAGE is installed at
 * LAYOUT_HOOK_SCRIPTS/STAGE/NAME (common/layout.h); the init runs a
 * stage's directory where the boot reaches it (bootlib/hookrun.h).
 */
#ifndef LIFEBOAT_HOOKSPEC_H
#define LIFEBOAT_HOOKSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* dracut's hook directories, in the order its boot runs them; a name with
 * a '/' is a subdirectory of the one before it (initqueue/settled). */
extern const char *const hookspec_stages[];
extern const size_t hookspec_n_stages;

/* The entry of hookspec_stages that is name, or NULL. */
const char *hookspec_stage_find(const char *name);

/* Whether a hook (st: what stat(2) says of it) may run: a regular file,
 * executable by its owner, owned by root, writable by nobody but root
 * (neither group nor others). Returns 0, or -EPERM with *why saying which
 * rule it breaks ("is writable by group or others"). */
int hookspec_file_trusted(const struct stat *st, const char **why);
/* The same rule for the directory that holds it: a directory owned by
 * root, writable by nobody else (anyone else could swap the hook). */
int hookspec_dir_trusted(const struct stat *st, const char **why);

#endif
