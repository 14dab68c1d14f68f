/* ldconf: the library directories listed in ld.so.conf and what it includes. */
#ifndef LIFEBOAT_LDCONF_H
#define LIFEBOAT_LDCONF_H

#include "common/strv.h"

/* Append to dirs, without duplicates, the directories named in conf (a path
 * inside root, usually "/etc/ld.so.conf"), following "include" lines and
 * their glob patterns (relative ones from the including file's directory)
 * inside root. A missing file adds nothing; an unreadable one or includes
 * nested too deep are warned about and skipped, as the directories are only
 * a search path. Returns 0 or -ENOMEM. */
int ldconf_read(const char *root, const char *conf, struct strv *dirs);

#endif
