/* shadow: the root password hash from a shadow(5) file, for --rescue-auth. */
#ifndef LIFEBOAT_SHADOW_H
#define LIFEBOAT_SHADOW_H

#include <stddef.h>

/* Find root's entry in text (the content of /etc/shadow: lines of
 * name:hash:...) and copy its hash into hash. Returns 0; -ENOENT when there
 * is no root entry; -EPERM when the account is locked ('!' or '*'), or has
 * no password, so no password could open the shell; -ENAMETOOLONG when the
 * hash does not fit; -EINVAL when it holds a NUL byte. */
int shadow_root_hash(const char *text, size_t len, char *hash, size_t size);

#endif
