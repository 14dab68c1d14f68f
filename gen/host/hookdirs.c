/* hookdirs: listing, checking and running the hooks.d executables. */
#include "gen/host/hookdirs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hookspec.h"
#include "gen/gen_report.h"
#include "gen/host/hostrun.h"

static void entry_free(struct hook_entry *e)
{
	free(e->name);
	free(e->dir);
	free(e->path);
}

void hookdirs_free(struct hook_set *set)
{
	for (size_t i = 0; i < set->len; i++)
		entry_free(&set->items[i]);
	free(set->items);
	*set = (struct hook_set){ 0 };
}

/* The drop-in rule's "disabled": a symlink to /dev/null. */
static int disabled(const char *path)
{
	char target[16];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return 0;
	target[n] = '\0';
	return strcmp(target, "/dev/null") == 0;
}

/* The entry of set named name, made when there is none. */
static struct hook_entry *entry_for(struct hook_set *set, const char *name)
{
	struct hook_entry *items;

	for (size_t i = 0; i < set->len; i++)
		if (strcmp(set->items[i].name, name) == 0)
			return &set->items[i];
	items = realloc(set->items, (set->len + 1) * sizeof(*items));
	if (!items)
		return NULL;
	set->items = items;
	items[set->len] = (struct hook_entry){ .name = strdup(name) };
	if (!items[set->len].name)
		return NULL;
	return &items[set->len++];
}

/* Record dir/name in set, over an earlier directory's entry of that name. */
static int add_entry(struct hook_set *set, const char *dir, const char *name)
{
	struct hook_entry *e = entry_for(set, name);
	char path[PATH_MAX];

	if (!e)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	free(e->dir);
	free(e->path);
	e->dir = strdup(dir);
	e->path = disabled(path) ? NULL : strdup(path);
	return e->dir && (e->path || disabled(path)) ? 0 : -ENOMEM;
}

static int list_dir(const char *dir, struct hook_set *set)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;

	if (!d) {
		r = -errno;
		if (r == -ENOENT)
			return 0;
		gen_error("hooks: cannot read the directory %s: %s", dir, strerror(-r));
		return r;
	}
	while (r == 0 && (de = readdir(d)))
		if (de->d_name[0] != '.')
			r = add_entry(set, dir, de->d_name);
	closedir(d);
	return r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct hook_entry *)a)->name, ((const struct hook_entry *)b)->name);
}

int hookdirs_list(const char *const dirs[], size_t n, struct hook_set *out)
{
	int r = 0;

	*out = (struct hook_set){ 0 };
	for (size_t i = 0; r == 0 && i < n; i++)
		r = list_dir(dirs[i], out);
	if (r < 0)
		hookdirs_free(out);
	else if (out->len)
		qsort(out->items, out->len, sizeof(out->items[0]), by_name);
	return r;
}

static int refuse(const struct hook_entry *h, const char *what, const char *why)
{
	gen_error("hooks: %s will not run: %s %s; make it root's and writable by root "
		  "alone (chown root: and chmod go-w), or remove it", h->path, what, why);
	return -EPERM;
}

static int check_dir(const struct hook_entry *h, const char *dir)
{
	struct stat st;
	const char *why;

	if (stat(dir, &st) < 0)
		return refuse(h, dir, strerror(errno));
	return hookspec_dir_trusted(&st, &why) < 0 ? refuse(h, dir, why) : 0;
}

int hookdirs_check(const struct hook_entry *h)
{
	char real[PATH_MAX], *slash;
	struct stat st;
	const char *why;
	int r;

	if (!realpath(h->path, real) || stat(real, &st) < 0) {
		r = -errno;
		gen_error("hooks: %s cannot be run: %s", h->path, strerror(-r));
		return r;
	}
	if (hookspec_file_trusted(&st, &why) < 0)
		return refuse(h, "it", why);
	/* Who may write the directory may put another file in its place:
	 * the one that lists it, and the one it resolves into. */
	r = check_dir(h, h->dir);
	slash = strrchr(real, '/');
	if (r == 0 && slash) {
		*slash = '\0';
		r = check_dir(h, real[0] ? real : "/");
	}
	return r;
}

/* The hook's whole environment: nothing of the caller's but these. */
static void env_make(const struct hookdirs_env *env, const char *name, char buf[][PATH_MAX + 32],
		     char *envp[])
{
	snprintf(buf[0], sizeof(buf[0]), "LIFEBOAT_KVER=%s", env->kver);
	snprintf(buf[1], sizeof(buf[1]), "LIFEBOAT_MODDIR=%s", env->moddir);
	snprintf(buf[2], sizeof(buf[2]), "LIFEBOAT_MODE=%s", env->mode);
	snprintf(buf[3], sizeof(buf[3]), "LIFEBOAT_HOOK=%s", name);
	snprintf(buf[4], sizeof(buf[4]), "LIFEBOAT_VERBOSE=%d", env->verbose ? 1 : 0);
	snprintf(buf[5], sizeof(buf[5]), "LIFEBOAT_TMPDIR=%s", env->tmpdir);
	for (int i = 0; i < 6; i++)
		envp[i] = buf[i];
	envp[6] = "LIFEBOAT_HOOKS_API=1";
	envp[7] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	envp[8] = "LC_ALL=C";
	envp[9] = NULL;
}

/* What ended a hook that did not exit with 0, in one line. */
static int hook_failed(const struct hook_entry *h, int r, unsigned int timeout_ms)
{
	if (r == -ETIMEDOUT)
		gen_error("hooks: %s did not end within %u s and was stopped; fix or remove it",
			  h->path, (timeout_ms + 999) / 1000);
	else if (r == -EFBIG)
		gen_error("hooks: %s wrote more than %d bytes of requests; fix or remove it",
			  h->path, HOOKDIRS_OUTPUT_MAX);
	else if (r == -EINTR)
		gen_error("hooks: %s was ended by a signal; fix or remove it", h->path);
	else if (r < 0)
		gen_error("hooks: %s could not be run: %s", h->path, strerror(-r));
	else
		gen_error("hooks: %s failed (exit status %d); its messages are above. Fix or "
			  "remove it", h->path, r);
	return r < 0 ? r : -EIO;
}

static int run_one(const struct hook_entry *h, const struct hookdirs_env *env,
		   unsigned int timeout_ms, struct hookreq_list *out)
{
	char bufs[6][PATH_MAX + 32], *envp[10], err[512];
	const char *const argv[] = { h->path, NULL };
	struct hostrun_io io = { .max = HOOKDIRS_OUTPUT_MAX, .stderr_shown = true,
				 .env = envp, .timeout_ms = timeout_ms };
	char *text;
	size_t len;
	int r = hookdirs_check(h);

	if (r < 0)
		return r;
	env_make(env, h->name, bufs, envp);
	gen_info("hooks: running %s", h->path);
	r = hostrun_run(argv, &io, &text, &len);
	if (r != 0) {
		if (r > 0)
			free(text);
		return hook_failed(h, r, timeout_ms);
	}
	r = hookreq_parse(text, len, h->path, out, err, sizeof(err));
	free(text);
	if (r == -EINVAL)
		gen_error("hooks: %s: output %s", h->path, err);
	else if (r < 0)
		gen_error("hooks: reading what %s asks for: %s", h->path, strerror(-r));
	return r;
}

int hookdirs_run(const struct hook_set *set, const struct hookdirs_env *env,
		 unsigned int timeout_ms, struct hookreq_list *out)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < set->len; i++)
		if (set->items[i].path)
			r = run_one(&set->items[i], env, timeout_ms, out);
		else
			gen_info("hooks: %s/%s is disabled (a symlink to /dev/null)",
				 set->items[i].dir, set->items[i].name);
	return r;
}
