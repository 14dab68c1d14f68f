/* modprobe: lifeboat's modprobe for the rescue shell: loading through the
 * init's loader, unloading with what the module needed. */
#include "rescue/modprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bootlib/modload.h"
#include "common/fileread.h"

/* Deep enough for real dependency chains (as bootlib/modload.c's). */
#define MODPROBE_MAX_DEPTH 32
#define MODPROBE_TABLE_MAX (16u << 20)

static int modprobe_delete(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) == 0 ? 0 : -errno;
}

int (*modprobe_delete_fn)(const char *name) = modprobe_delete;

/* Unload m, then what it needed once nothing else uses it; only m's own
 * failure counts: a dependency still in use, or built in, stays. */
static int remove_module(const struct modtab *t, const struct modtab_module *m, int depth)
{
	int r = modprobe_delete_fn(m->name);

	if (r < 0 || depth == MODPROBE_MAX_DEPTH)
		return r;
	for (size_t i = 0; m->deps[i]; i++) {
		const struct modtab_module *d = modtab_find(t, m->deps[i]);

		if (d)
			remove_module(t, d, depth + 1);
	}
	for (size_t i = 0; m->post[i]; i++) {
		const struct modtab_module *d = modtab_find(t, m->post[i]);

		if (d)
			remove_module(t, d, depth + 1);
	}
	return 0;
}

struct alias_remove {
	const struct modtab *t;
	int matched;
	int err;
};

static int remove_match(struct modtab_module *m, void *data)
{
	struct alias_remove *a = data;
	int r = remove_module(a->t, m, 0);

	a->matched++;
	if (r < 0 && a->err == 0)
		a->err = r;
	return 0;
}

/* A module's name as the kernel and the table spell it: '_' for '-'. */
static void name_normalised(const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s", name);
	for (char *c = out; *c; c++)
		if (*c == '-')
			*c = '_';
}

int modprobe_remove(const struct modtab *t, const char *name)
{
	struct alias_remove a = { .t = t };
	char norm[128];
	const struct modtab_module *m;

	name_normalised(name, norm, sizeof(norm));
	m = modtab_find(t, norm);
	if (m)
		return remove_module(t, m, 0);
	modtab_match(t, name, remove_match, &a);
	return a.matched == 0 ? -ESRCH : a.err;
}

/* The loader the init uses, and the one modprobe hands it. */
static int (*kernel_load)(const char *path, const char *options);
/* A module's failure was said on stderr (load_unless_loaded). */
static bool load_failure_said;

static bool module_is_loaded(const char *name)
{
	char path[192];

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	return access(path, F_OK) == 0;
}

/* A fresh process does not know what the kernel has: a module it has
 * already is not unpacked again. A failure is said here, on the person's
 * terminal, naming the file (the loader's own message goes to the
 * kernel log). */
static int load_unless_loaded(const char *path, const char *options)
{
	char name[128];
	int r;

	if (modprobe_name_of(path, name, sizeof(name)) == 0 && module_is_loaded(name))
		return -EEXIST;
	r = kernel_load(path, options);
	if (r < 0 && r != -EEXIST) {
		fprintf(stderr, "modprobe: loading %s failed: %s (dmesg may say more)\n", path,
			strerror(-r));
		load_failure_said = true;
	}
	return r;
}

/* The command line's parameter words, then the ones typed after the name
 * (as NAME.PARAM=VALUE, which the loader hands to that module). */
static int params_set(const struct driver_args *drivers, const struct modprobe_request *req)
{
	struct strv words = STRV_INIT;
	int r = 0;

	for (size_t i = 0; r == 0 && i < drivers->params.len; i++)
		r = strv_push(&words, drivers->params.items[i]);
	for (size_t i = 0; r == 0 && i < req->params.len; i++) {
		char *w;

		if (asprintf(&w, "%s.%s", req->names.items[0], req->params.items[i]) < 0)
			r = -ENOMEM;
		else {
			r = strv_push(&words, w);
			free(w);
		}
	}
	if (r == 0)
		r = modload_set_params(&words);
	strv_free(&words);
	return r;
}

/* A name the table does not know may be built into the kernel. */
static bool builtin(const char *name)
{
	char path[192], norm[128];

	name_normalised(name, norm, sizeof(norm));
	snprintf(path, sizeof(path), "/sys/module/%s", norm);
	return access(path, F_OK) == 0;
}

static int load_one(const char *name, bool quiet, const char *table)
{
	int r;

	load_failure_said = false;
	r = modload_name(name);
	/* A module's own failure (its file missing too: -ENOENT) was said. */
	if (r >= 0 || load_failure_said)
		return r < 0 ? 1 : 0;
	if (r == -ENOENT && builtin(name))
		return 0;
	if (r == -ENOENT && !quiet)
		fprintf(stderr, "modprobe: %s: not in this image's module table %s; rebuild the "
			"image with --add-modules %s\n", name, table, name);
	else if (r != -ENOENT)
		fprintf(stderr, "modprobe: %s: not loaded (%s)\n", name, strerror(-r));
	return 1;
}

static int load_all(const struct modprobe_request *req, const struct driver_args *drivers,
		    const char *table)
{
	int r = modload_open(table), status = 0;

	if (r < 0) {
		fprintf(stderr, "modprobe: reading %s failed: %s\n", table, strerror(-r));
		return 1;
	}
	if (params_set(drivers, req) < 0)
		fprintf(stderr, "modprobe: out of memory: no module parameters are passed\n");
	for (size_t i = 0; i < drivers->blacklist.len; i++)
		modload_blacklist(drivers->blacklist.items[i]);
	kernel_load = modload_load_fn;
	modload_load_fn = load_unless_loaded;
	for (size_t i = 0; i < req->names.len; i++)
		status |= load_one(req->names.items[i], req->quiet, table);
	modload_load_fn = kernel_load;
	modload_close();
	return status;
}

static int remove_one(const struct modtab *t, const char *name, bool quiet,
		      const char *table)
{
	int r = modprobe_remove(t, name);

	if (r < 0 && quiet)
		return 1;
	if (r == -ESRCH)
		fprintf(stderr, "modprobe: %s: not in this image's module table %s%s\n", name,
			table, builtin(name) ? " (it is built into the kernel)" : "");
	else if (r == -ENOENT)
		fprintf(stderr, "modprobe: %s is not loaded\n", name);
	else if (r == -EWOULDBLOCK || r == -EAGAIN)
		fprintf(stderr, "modprobe: %s is in use (lsmod shows by what)\n", name);
	else if (r < 0)
		fprintf(stderr, "modprobe: removing %s failed: %s\n", name, strerror(-r));
	return r < 0 ? 1 : 0;
}

static int remove_all(const struct modprobe_request *req, const char *table)
{
	struct modtab t;
	char *text = NULL;
	size_t len = 0;
	int r = file_read_all(table, MODPROBE_TABLE_MAX, &text, &len), status = 0;

	if (r == 0)
		r = modtab_parse(text, len, &t, NULL);
	free(text);
	if (r < 0) {
		fprintf(stderr, "modprobe: reading %s failed: %s\n", table, strerror(-r));
		return 1;
	}
	for (size_t i = 0; i < req->names.len; i++)
		status |= remove_one(&t, req->names.items[i], req->quiet, table);
	modtab_free(&t);
	return status;
}

int modprobe_run(const struct modprobe_request *req, const struct driver_args *drivers,
		 const char *table)
{
	return req->remove ? remove_all(req, table) : load_all(req, drivers, table);
}

static const char usage[] =
	"usage: modprobe [-q] [-v] NAME [PARAM=VALUE...]\n"
	"       modprobe -a [-q] NAME...\n"
	"       modprobe -r [-q] NAME...\n"
	"NAME is a module or an alias (fs-ext4); the modules come from %s.\n";

int modprobe_main(int argc, char *const argv[], const struct driver_args *drivers)
{
	struct modprobe_request req;
	char err[128];
	int status;

	if (modprobe_parse(argc, argv, &req, err, sizeof(err)) < 0) {
		fprintf(stderr, "modprobe: %s\n", err);
		fprintf(stderr, usage, MODTAB_PATH);
		modprobe_request_free(&req);
		return 1;
	}
	if (req.help) {
		printf(usage, MODTAB_PATH);
		status = 0;
	} else {
		status = modprobe_run(&req, drivers, MODTAB_PATH);
	}
	modprobe_request_free(&req);
	return status;
}
