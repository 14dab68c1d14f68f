/* modtab_write: format the module table's records (common/modtab.h). */
#ifndef LIFEBOAT_MODTAB_WRITE_H
#define LIFEBOAT_MODTAB_WRITE_H

#include <stddef.h>

#include "common/strv.h"

/* Each call appends one record line to lines. A field holding a tab or a
 * newline, an empty name or a list item holding a comma is -EINVAL: the
 * table could not be read back. Lists are NULL-terminated (NULL for none). */
int modtab_write_module(struct strv *lines, const char *name, const char *path,
			char *const *deps, const char *options);
int modtab_write_softdep(struct strv *lines, const char *name, char *const *pre,
			 char *const *post);
int modtab_write_alias(struct strv *lines, const char *pattern, const char *name);
int modtab_write_blacklist(struct strv *lines, const char *name);
/* Sort the lines (reproducible images) and join them after a header comment.
 * Returns a malloc'd text in *out and its length, or -ENOMEM. */
int modtab_write_join(struct strv *lines, char **out, size_t *len);

#endif
