/* keyscript_env: the arguments and environment of a crypttab keyscript, as
 * Debian's cryptsetup-initramfs gives them (crypttab(5), "keyscript="):
 *
 *   argv[1]            the key field, decoded
 *   CRYPTTAB_NAME      the target name, decoded (_CRYPTTAB_NAME: as written)
 *   CRYPTTAB_SOURCE    the device it resolved to (_CRYPTTAB_SOURCE: as written)
 *   CRYPTTAB_KEY       the key field, decoded (_CRYPTTAB_KEY: as written)
 *   CRYPTTAB_OPTIONS   the options field, decoded (_CRYPTTAB_OPTIONS: as written)
 *   CRYPTTAB_TRIED     the tries before this one: 0, then 1, 2, ...
 *   CRYPTTAB_OPTION_X  each option cryptsetup-initramfs knows, "yes" for a
 *                      flag; aliases under their first name (read-only as
 *                      readonly), '-' as '_' (keyfile-offset as keyfile_offset)
 *
 * "Decoded": crypttab's octal sequences \0NNN become their byte. Pure: no
 * allocation, bounded buffers, unit-tested (tests/unit/test_keyscript_env.c).
 */
#ifndef LIFEBOAT_BLOCKSTACK_KEYSCRIPT_ENV_H
#define LIFEBOAT_BLOCKSTACK_KEYSCRIPT_ENV_H

#include <stddef.h>

#include "common/crypttab.h"

#define KEYSCRIPT_ENV_MAX 64        /* variables */
#define KEYSCRIPT_ENV_BYTES 8192    /* their text */

/* A container's crypttab line, the fields as written. */
struct keyscript_line {
	const char *name;      /* NAME */
	const char *source;    /* SOURCE ("UUID=...") */
	const char *device;    /* what SOURCE resolved to ("/dev/vda") */
	const char *key;       /* the key field ("none" when there is none) */
	const char *options;   /* the options field ("" when there is none) */
};

struct keyscript_env {
	char *argv[3];                    /* the script, the key field, NULL */
	char *envp[KEYSCRIPT_ENV_MAX + 1];
	size_t n_env;
	char arg[CRYPTTAB_FIELD_MAX];
	char text[KEYSCRIPT_ENV_BYTES];
	size_t used;
};

/* Fill env for running script (an absolute path) for line's container,
 * after tried failed tries. Returns 0, or -E2BIG when the variables do not
 * fit (a line of crypttab's field sizes always does). */
int keyscript_env_make(struct keyscript_env *env, const char *script,
		       const struct keyscript_line *line, unsigned int tried);

/* crypttab's octal sequences (\0NNN) of in decoded into out (always
 * terminated, cut to size; a sequence that makes a NUL byte ends it). */
void keyscript_decode(const char *in, char *out, size_t size);

#endif
