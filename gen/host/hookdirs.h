/* hookdirs: the build host's hooks.d drop-in directories, and running the
 * executables in them (docs/extending.md).
 *
 * The package's directory, then the administrator's: an entry of the later
 * one replaces the same name of the earlier one, and a symlink to
 * /dev/null there disables it (systemd's drop-in rule). The hooks run in
 * name order, each only when it, the directory that lists it and the
 * directory it resolves into are root's and writable by root alone
 * (common/hookspec.h), with a fixed environment and a bound in time; their
 * standard output is requests (gen/host/hookreq.h), their standard error
 * the user's to read.
 */
#ifndef LIFEBOAT_HOOKDIRS_H
#define LIFEBOAT_HOOKDIRS_H

#include <stddef.h>

#include "gen/host/hookreq.h"

#define HOOKDIRS_PACKAGE "/usr/lib/lifeboat/hooks.d"
#define HOOKDIRS_ADMIN "/etc/lifeboat/hooks.d"
/* How long a hook may run. */
#define HOOKDIRS_TIMEOUT_MS (120 * 1000)
/* The most a hook may write on its standard output. */
#define HOOKDIRS_OUTPUT_MAX (1024 * 1024)

struct hook_entry {
	char *name;
	char *dir;     /* the hooks.d directory that lists it */
	char *path;    /* dir/name; NULL: disabled (a symlink to /dev/null) */
};

struct hook_set {
	struct hook_entry *items;   /* in name order once listed */
	size_t len;
};

/* What a hook is told, in its environment (LIFEBOAT_KVER, ...). */
struct hookdirs_env {
	const char *kver;
	const char *moddir;
	const char *mode;       /* "host-only" or "generic" */
	const char *tmpdir;     /* LIFEBOAT_TMPDIR (gen/host/hooktmp.h) */
	int verbose;
};

/* The hooks of dirs (n of them, the later overriding), in name order;
 * a missing directory has none. Returns 0 or -errno (reported). */
int hookdirs_list(const char *const dirs[], size_t n, struct hook_set *out);
void hookdirs_free(struct hook_set *set);
/* Whether the hook h may run: 0, or -EPERM with the rule it breaks
 * reported in one line naming the file. */
int hookdirs_check(const struct hook_entry *h);
/* Run the enabled hooks of set in order, each bounded by timeout_ms,
 * appending their requests to out. The first that may not run, fails,
 * hangs or writes a malformed line stops it: reported naming the hook
 * (and the line), -errno returned. */
int hookdirs_run(const struct hook_set *set, const struct hookdirs_env *env,
		 unsigned int timeout_ms, struct hookreq_list *out);

#endif
