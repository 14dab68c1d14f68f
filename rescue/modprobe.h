/* modprobe: lifeboat's modprobe for the rescue shell (docs/rescue.md).
 *
 * busybox's modprobe needs modules.dep, which the image does not carry;
 * the image's module table (common/modtab.h) is what the init loads from,
 * so this modprobe loads from it too, through the init's own loader
 * (bootlib/modload.c): dependencies, softdeps, aliases (fs-ext4), the
 * table's options and the command line's MODULE.PARAM=VALUE words, the
 * module stored xz'd or plain. It is the init binary run under the name
 * modprobe (init/multicall.c), linked where the shell's PATH and the
 * kernel's request_module find it (bootlib/shellsetup.h). */
#ifndef LIFEBOAT_RESCUE_MODPROBE_H
#define LIFEBOAT_RESCUE_MODPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "bootlib/driver_args.h"
#include "common/modtab.h"
#include "common/strv.h"

/* What was asked, from the arguments. */
struct modprobe_request {
	bool remove;        /* -r: unload the modules and what they needed */
	bool quiet;         /* -q: say nothing of a module the image lacks */
	bool help;          /* -h */
	struct strv names;  /* the modules (or aliases) */
	/* PARAM[=VALUE] words after the one module's name, without -a or -r. */
	struct strv params;
};

/* Parse argv (argv[0] is the program). Accepted: -a/--all (every argument
 * names a module), -r/--remove, -q/--quiet, -v/--verbose, -s/--syslog and
 * -b/--use-blacklist (no effect: the blacklists always apply), -h/--help,
 * and -- before the names (the kernel's request_module passes "-q --").
 * Short options may be joined (-qr). Returns 0 or -EINVAL with the reason
 * in err (an unknown option, no module named). */
int modprobe_parse(int argc, char *const argv[], struct modprobe_request *req, char *err,
		   size_t errsize);
void modprobe_request_free(struct modprobe_request *req);

/* The kernel's name of the module in file path: its base name up to
 * ".ko", '-' read as '_' (module names in /proc/modules and /sys/module).
 * Returns 0, or -EINVAL when path names no module file. */
int modprobe_name_of(const char *path, char *name, size_t size);

/* Unload the module of name (or the modules an alias resolves to) from
 * table t, then each module it depended on that nothing uses any more, as
 * modprobe -r does. Returns 0, -ESRCH when t knows no such name, or the
 * named module's -errno (-ENOENT: not loaded, -EWOULDBLOCK: in use). */
int modprobe_remove(const struct modtab *t, const char *name);

/* How a module is unloaded: delete_module(2), not waiting for its users.
 * Unit tests replace it. Returns 0 or -errno. */
extern int (*modprobe_delete_fn)(const char *name);

/* What modprobe_main does for a parsed request, with the module table at
 * table (MODTAB_PATH in the image): the exit status, failures said on
 * stderr, each once. */
int modprobe_run(const struct modprobe_request *req, const struct driver_args *drivers,
		 const char *table);

/* The program: the exit status (0, 1 on any failure, said on stderr).
 * drivers: the command line's driver words (rd.driver.blacklist=,
 * MODULE.PARAM=VALUE), parsed as the init parses them. */
int modprobe_main(int argc, char *const argv[], const struct driver_args *drivers);

#endif
