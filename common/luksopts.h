/* luksopts: the options of a LUKS container, as crypttab(5)'s fourth field
 * and rd.luks.options= give them, and the cryptsetup arguments they make.
 * Pure: the generator checks the host's lines with it, the init opens with it. */
#ifndef LIFEBOAT_LUKSOPTS_H
#define LIFEBOAT_LUKSOPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Passphrase tries without tries=, and the most tries= gives: a boot must
 * not wait forever on a console nobody watches. */
#define LUKS_OPTS_TRIES_DEFAULT 3
#define LUKS_OPTS_TRIES_MAX 10
/* The most key bytes the init reads (they go through a pipe to cryptsetup). */
#define LUKS_OPTS_KEYFILE_SIZE_MAX 8192
#define LUKS_OPTS_NOTES_MAX 512
/* cryptsetup flags the options can add to its command line. */
#define LUKS_OPTS_ARGV_MAX 6

enum luks_opt_flag {
	LUKS_OPT_DISCARD       = 1 << 0,   /* discard: --allow-discards */
	LUKS_OPT_READONLY      = 1 << 1,   /* readonly, read-only: --readonly */
	LUKS_OPT_SAME_CPU      = 1 << 2,   /* same-cpu-crypt */
	LUKS_OPT_SUBMIT_CPUS   = 1 << 3,   /* submit-from-crypt-cpus */
	LUKS_OPT_NO_READ_WQ    = 1 << 4,   /* no-read-workqueue */
	LUKS_OPT_NO_WRITE_WQ   = 1 << 5,   /* no-write-workqueue */
	LUKS_OPT_NOAUTO        = 1 << 6,   /* opened only when the command line names it */
	LUKS_OPT_HEADER        = 1 << 7,   /* header=: a detached header, not supported */
	LUKS_OPT_TPM2_PCRS     = 1 << 8,   /* tpm2-pcrs= given: tpm2_pcrs is set */
};

/* tpm2-pin=: unset (the token says), yes, no. */
enum luks_opt_tpm2_pin { LUKS_TPM2_PIN_TOKEN, LUKS_TPM2_PIN_YES, LUKS_TPM2_PIN_NO };
#define LUKS_OPTS_TPM2_DEVICE_MAX 64
/* Where Debian's cryptsetup looks for a keyscript= given by a bare name. */
#define LUKS_OPTS_KEYSCRIPT_DIR "/lib/cryptsetup/scripts"
#define LUKS_OPTS_KEYSCRIPT_MAX 128

struct luks_opts {
	unsigned int flags;          /* enum luks_opt_flag */
	unsigned int tries;          /* passphrase tries, 1..LUKS_OPTS_TRIES_MAX */
	/* tries=0: a keyscript runs until it opens the container (the bound
	 * is rd.timeout=); a passphrase prompt keeps tries, as noted. */
	bool tries_forever;
	/* keyscript=: the program whose output is the key, as an absolute
	 * path (a bare name is in LUKS_OPTS_KEYSCRIPT_DIR); "" for none. */
	char keyscript[LUKS_OPTS_KEYSCRIPT_MAX];
	unsigned int timeout_sec;    /* timeout=: a prompt gives up after it; 0: waits */
	uint64_t keyfile_offset;     /* bytes of the key file skipped */
	size_t keyfile_size;         /* bytes of the key file read; 0: all of it */
	/* tpm2-device=PATH ("" for auto: the kernel's /dev/tpmrm0). */
	char tpm2_device[LUKS_OPTS_TPM2_DEVICE_MAX];
	enum luks_opt_tpm2_pin tpm2_pin;
	uint32_t tpm2_pcrs;          /* tpm2-pcrs=: bit N for PCR N */
	unsigned int n_notes;        /* options not acted on as written */
	char notes[LUKS_OPTS_NOTES_MAX]; /* "plain: ...; tries=abc: ..." for a warning */
};

/* The longest timeout= or rd.luks.timeout= taken, in seconds (a day). */
#define LUKS_OPTS_TIMEOUT_MAX 86400

/* A prompt's time limit as systemd's crypttab and dracut write it: seconds
 * ("30", "30s") or minutes ("2min"); 0 means no limit. Returns NULL, or
 * why the value is not taken. */
const char *luks_opts_seconds(const char *value, unsigned int *sec);

/* No option: LUKS_OPTS_TRIES_DEFAULT tries, whole key files, no flag. */
void luks_opts_init(struct luks_opts *o);
/* Parse a comma-separated list (crypttab's fourth field) into o, which
 * starts from luks_opts_init. Nothing is fatal: an option that is not
 * supported, unknown or malformed is left out and said in o->notes.
 * Returns o->n_notes. */
unsigned int luks_opts_parse(const char *text, struct luks_opts *o);
/* keyscript= where only crypttab may name one (rd.luks.options=): it is
 * dropped and noted. */
void luks_opts_refuse_keyscript(struct luks_opts *o, const char *why);
/* keyscript='s value as a path into out: a bare name is in
 * LUKS_OPTS_KEYSCRIPT_DIR, an absolute path stays. Returns NULL, or why
 * the value is not taken (empty, relative with a '/', a ".." part, too
 * long). */
const char *luks_opts_keyscript_path(const char *value, char *out, size_t size);
/* cryptsetup's flags for o into argv (at most max); returns how many. */
size_t luks_opts_argv(const struct luks_opts *o, const char *argv[], size_t max);
/* The options used, for the log: "allow-discards, readonly" ("" for none);
 * with key_file, keyfile-offset= and keyfile-size= too. Never key bytes. */
void luks_opts_describe(const struct luks_opts *o, bool key_file, char *buf, size_t size);

#endif
