/* auth: the root password before a rescue shell (lifeboat build --rescue-auth). */
#ifndef LIFEBOAT_RESCUE_AUTH_H
#define LIFEBOAT_RESCUE_AUTH_H

#include <stddef.h>

#include "common/layout.h"

/* The root password hash from the build host's /etc/shadow, one line,
 * mode 0600. Present only in images built with --rescue-auth. */
#define RESCUE_AUTH_PATH LAYOUT_RESCUE_AUTH
/* libcrypt is loaded only when a password is asked, so images without
 * --rescue-auth do not carry it (the generator adds it with the hash). */
#define RESCUE_LIBCRYPT LAYOUT_LIBCRYPT
#define RESCUE_AUTH_TRIES 3

/* Read the hash from path into hash. Returns 0, -ENOENT when the image has
 * no password (access is open), -EINVAL for an empty or malformed file, or
 * -errno. */
int auth_load(const char *path, char *hash, size_t size);
/* Whether password hashes to hash with crypt(3). Returns 0 on a match,
 * -EACCES on a mismatch, -ENOSYS when libcrypt cannot be loaded. */
int auth_check(const char *hash, const char *password);
/* For a program linked with libcrypt (the static way out, which could not
 * dlopen a library with the glibc it was linked against): the check uses
 * fn instead of opening libcrypt. */
void auth_use_crypt(char *(*fn)(const char *, const char *));
/* Ask for the root password on every active console (the first answer
 * wins), up to RESCUE_AUTH_TRIES times. Returns 0 when one is right, with
 * the device of the console it was typed on in tty (the shell runs
 * there), -EACCES after the last wrong one, -ENOSYS without libcrypt,
 * -EIO when the consoles gave out. */
int auth_ask(const char *hash, char *tty, size_t size);

#endif
