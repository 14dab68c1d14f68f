/* lukstang: open a LUKS2 container with its clevis bindings (pins tang,
 * tpm2, sss), before anyone is asked (docs/blockstacks.md). */
#ifndef LIFEBOAT_LUKSTANG_H
#define LIFEBOAT_LUKSTANG_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"

/* How long each Tang server is given to answer: a server that is down
 * must not keep the prompt away for long. */
#define LUKS_TANG_TIMEOUT_SEC 10

enum tang_result {
	TANG_NONE,      /* the image has no lifeboat-clevis, or the container no clevis binding */
	TANG_OPENED,
	TANG_FAILED,    /* the bindings were tried; the console says why */
};

/* lifeboat-clevis's standard error (out) as the console shows it: the next
 * non-empty line from *pos, escaped (common/termescape.h: a binding's
 * reason carries the Tang URL the disk's LUKS2 header names), into line.
 * Returns false after the last. */
bool lukstang_next_line(const char **pos, char *line, size_t size);
/* lukstang_next_line, past the "clevis-used: PINS" line: what failed on
 * the way to a binding that opened it (a Tang server down), for the
 * console after the unlock. */
bool lukstang_next_failure(const char **pos, char *line, size_t size);
/* What opened it, from out's "clevis-used: PINS" line: "clevis PINS"
 * (escaped), or "clevis" without one. */
void lukstang_used_pins(const char *out, char *used, size_t size);
/* From out's "clevis-binding: WORDS" line, for the console: "its clevis
 * binding (WORDS)" (escaped; "token 1, tang server URL"), or "its clevis
 * binding" without one. */
void lukstang_binding(const char *out, char *binding, size_t size);
/* The log line that c opened with the binding out names, and (on the
 * console) what failed on the way. */
void lukstang_said_opened(const struct luks_container *c, const char *out);

/* lifeboat-clevis's command line for c: DEVICE SECONDS and cryptsetup's
 * open, which it hands the recovered passphrase to. */
struct lukstang_argv {
	const char *argv[4 + LUKS_OPEN_ARGV_MAX];
	char dev[96], secs[16];
};
void lukstang_argv(const struct luks_container *c, struct lukstang_argv *a);
/* What lifeboat-clevis's output is read into. */
#define LUKSTANG_OUT_MAX 2048

/* Run lifeboat-clevis (LAYOUT_CLEVIS) on the container: it recovers the
 * passphrase from its clevis tokens (Tang servers, the TPM) and hands it
 * to cryptsetup itself, so the secret never passes through PID 1. */
enum tang_result luks_tang_open(const struct luks_container *c);

#endif
