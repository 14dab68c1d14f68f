/* luks: open a LUKS container with a passphrase typed on the console. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKS_H
#define LIFEBOAT_BLOCKSTACK_LUKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/luksopts.h"

/* A container to open: /dev/DEVNAME, LUKS UUID uuid, as /dev/mapper/NAME,
 * with its options (crypttab's, rd.luks.options=). */
struct luks_container {
	const char *devname, *uuid, *name;
	const struct luks_opts *opts;
	unsigned int timeout_sec;   /* timeout=, rd.luks.timeout=: 0, prompts wait */
	/* Its clevis bindings failed before the prompt: they are tried again
	 * while it is up (blockstack/lukstang_retry.h). */
	bool clevis_retry;
};

/* cryptsetup's words to open the container with a key on its stdin and
 * its options' flags; dev (at least 96 bytes) holds the device path they
 * name. Returns how many words (argv is NULL-terminated after them). */
#define LUKS_OPEN_ARGV_MAX (8 + LUKS_OPTS_ARGV_MAX)
size_t luks_open_argv(const struct luks_container *c, const char **argv, char *dev,
		      size_t dev_size);
/* Open the container with the key bytes (a passphrase or a key file's
 * content, fed on cryptsetup's stdin, never on its command line) and the
 * flags of its options. cryptsetup's words go to out. Returns 0, -EACCES
 * when the key is refused, -EIO when cryptsetup failed otherwise, or
 * -errno when it could not run. */
int luks_open_key(const struct luks_container *c, const void *key, size_t len,
		  char *out, size_t size);

/* " (allow-discards, readonly)" for the options used, "" for none: the end
 * of the log line that says the container opened. */
void luks_opts_suffix(const struct luks_container *c, bool key_file, char *buf, size_t size);

/* Where nobody may be there to answer (a capture kernel), every prompt
 * for a container (its passphrase, its TPM2 PIN) gives up after sec
 * seconds, leaving it locked; 0 (the default): prompts wait. */
void luks_bound_prompts(unsigned int sec);
/* How long a prompt for c waits, in seconds (0: until answered): the
 * shorter of its timeout_sec and that bound. */
unsigned int luks_prompt_sec(const struct luks_container *c);
/* The deadline of a prompt for c begun now, for console_set's deadline_ms
 * (0: none). */
uint64_t luks_prompt_deadline(const struct luks_container *c);

/* Ask for the passphrase on every active console and, while the SSH
 * server runs, from remote logins (bootlib/guest.h) (the first answer wins;
 * kernel events are followed meanwhile: bootlib/evloop.h), echo off, and
 * open the container with cryptsetup; up to its options' tries (3 by
 * default; the boot then waits for root and ends in rescue, which says
 * which device stayed locked). The passphrase is wiped after each try and never logged.
 * Returns 0, -EACCES when every passphrase was refused, -EIO when the
 * console gave out, -ETIMEDOUT when nobody answered within
 * luks_prompt_sec, or another -errno (the reason is logged here, since
 * only this step knows the tool's words). */
int luks_unlock(const struct luks_container *c);

#endif
