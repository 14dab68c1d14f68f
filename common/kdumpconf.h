/* kdumpconf: the capture settings the generator writes into the image
 * (/etc/lifeboat/kdump.conf): targets in order, dump level, formats and
 * what to do afterwards. One "key value" per line, '#' comments; a target
 * line's value is read by kdumptarget.h. */
#ifndef LIFEBOAT_KDUMP_KDUMPCONF_H
#define LIFEBOAT_KDUMP_KDUMPCONF_H

#include <stdbool.h>
#include <stddef.h>

#include "common/kdumptarget.h"

#define KDUMP_CONF_PATH "/etc/lifeboat/kdump.conf"
#define KDUMP_TARGETS_MAX 8
#define KDUMP_CONF_MAX 8192          /* the most of the file the capture reads */
#define KDUMP_DEFAULT_DIR "/var/crash"
/* Credentials for URL targets (netrc format), mode 0600: never on the
 * command line or in the logs. */
#define KDUMP_NETRC_PATH "/etc/lifeboat/kdump.netrc"

/* The library the capture dlopen()s for LZO pages (kdump/pagecomp_lzo.c),
 * which the generator adds to images built with compress=lzo. */
#define KDUMP_LIBLZO "liblzo2.so.2"
/* And libzstd for zstd pages (kdump/pagecomp_zstd.c). */
#define KDUMP_LIBZSTD "libzstd.so.1"

enum kdump_action { ACTION_REBOOT, ACTION_POWEROFF, ACTION_SHELL, ACTION_DEFAULT };

/* How the kdump file's pages are compressed (makedumpfile's -c, -l, -z). */
enum kdump_compress { COMPRESS_ZLIB, COMPRESS_LZO, COMPRESS_ZSTD };

/* Formats written to each target, as bits. */
enum kdump_format {
	FORMAT_KDUMP = 1,      /* vmcore: kdump-compressed (flattened over a URL) */
	FORMAT_ELF = 2,        /* vmcore.elf: an ELF core, filtered by the same level */
};

struct kdump_conf {
	struct kdump_target targets[KDUMP_TARGETS_MAX];
	int ntargets;
	unsigned level;                  /* makedumpfile's -d, default 31 */
	unsigned formats;
	enum kdump_compress compress;    /* default lzo (docs/kdump.md says why) */
	enum kdump_action action;        /* after a saved dump (default reboot) */
	enum kdump_action failure_action;/* when every target failed (default: shell if any, else reboot) */
};

void kdump_conf_init(struct kdump_conf *c);
/* Parse the text of the file. Returns 0, or -EINVAL with the 1-based
 * number of the first bad line in *bad_line. */
int kdump_conf_parse(const char *text, struct kdump_conf *c, int *bad_line);
/* "reboot", "poweroff", "shell"; -EINVAL for anything else. */
int kdump_conf_action_parse(const char *name, enum kdump_action *out);
/* "zlib", "lzo", "zstd"; -EINVAL for anything else. */
int kdump_conf_compress_parse(const char *name, enum kdump_compress *out);
const char *kdump_conf_compress_name(enum kdump_compress c);

#endif
