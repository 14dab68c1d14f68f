/* modload: load kernel modules in the init from the module table.
 *
 * Order for one module: its softdep "pre" modules, its dependencies, the
 * module itself, then its softdep "post" modules, as modprobe does. A module
 * the kernel already has (EEXIST) counts as loaded. A failure is reported
 * here, where the module's name is known, and does not stop other modules.
 */
#include "bootlib/modload.h"

#include "bootlib/log.h"
#include "bootlib/modparams.h"
#include "bootlib/unxz.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "common/modtab.h"
#include "common/strv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Deep enough for real dependency chains; a longer chain is a loop. */
#define MODLOAD_MAX_DEPTH 32
/* A generic image's table is about 100 KiB. */
#define MODLOAD_TABLE_MAX (16u << 20)

static struct modtab modload_tab;
/* The command line's MODULE.PARAM=VALUE words (modload_set_params). */
static struct strv modload_params = STRV_INIT;
static struct strv modload_blacklisted = STRV_INIT;

/* The image stores modules xz-compressed (gen/kmod/modpack.h): decompress
 * and hand the kernel the bytes. A plain module file goes by its fd. */
static int modload_kernel(const char *path, const char *options)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *image;
	size_t len;
	int r = 0;

	if (fd < 0)
		return -errno;
	if (!unxz_is_xz(fd)) {
		if (syscall(SYS_finit_module, fd, options, 0) != 0)
			r = -errno;
		close(fd);
		return r;
	}
	r = unxz_fd(fd, &image, &len);
	close(fd);
	if (r < 0)
		return r;
	if (syscall(SYS_init_module, image, len, options) != 0)
		r = -errno;
	free(image);
	return r;
}

int (*modload_load_fn)(const char *path, const char *options) = modload_kernel;

int modload_set_params(const struct strv *words)
{
	strv_free(&modload_params);
	for (size_t i = 0; words && i < words->len; i++)
		if (strv_push(&modload_params, words->items[i]) < 0)
			return -ENOMEM;
	return 0;
}

int modload_open(const char *path)
{
	size_t len = 0, bad_line;
	char *text = NULL;
	int r = file_read_all(path, MODLOAD_TABLE_MAX, &text, &len);

	modtab_free(&modload_tab);
	if (r == -ENOENT)
		return 0;   /* no table: every driver is built into the kernel */
	if (r < 0)
		return r;
	r = modtab_parse(text, len, &modload_tab, &bad_line);
	free(text);
	if (r == -EINVAL)
		log_warn("module table %s: line %zu is malformed; no module will be loaded",
			       path, bad_line);
	return r;
}

/* Kernel module names use '_' where users often write '-'. */
static void name_normalise(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

void modload_blacklist(const char *name)
{
	char *n = strdup(name);

	if (!n)
		return;
	name_normalise(n);
	strv_push_unique(&modload_blacklisted, n);
	free(n);
}

static bool modload_is_blacklisted(const char *name)
{
	return strv_contains(&modload_blacklisted, name);
}

/* The modules being loaded right now, outermost first: a softdep cycle
 * must end instead of recursing forever. */
struct load_stack {
	const struct modtab_module *mods[MODLOAD_MAX_DEPTH];
	size_t depth;
	/* Probe the devices of the module a device asked for in the
	 * background (the kernel's generic async_probe module parameter):
	 * finit_module returns once the driver is registered, so a slow
	 * probe (an ATA bus reset, a floppy controller) does not hold up the
	 * uevents of other devices. The device shows up by uevent when ready. */
	bool async_probe;
	/* Only mark the modules loaded: a background child loaded them. */
	bool mark_only;
};

static int module_load(struct modtab_module *m, struct load_stack *st, int *count);

/* Load each named module (unknown names are skipped: softdeps may name
 * modules the generator left out). Failures were reported; the first is
 * returned. */
static int names_load(char **names, struct load_stack *st, int *count)
{
	int err = 0;

	for (size_t i = 0; names && names[i]; i++) {
		struct modtab_module *d = modtab_find(&modload_tab, names[i]);
		int r = d ? module_load(d, st, count) : 0;

		if (r < 0 && err == 0)
			err = r;
	}
	return err;
}

static bool stack_has(const struct load_stack *st, const struct modtab_module *m)
{
	for (size_t i = 0; i < st->depth; i++)
		if (st->mods[i] == m)
			return true;
	return false;
}

/* Join the non-empty parts with single blanks into *out (malloc'd). */
static int options_join(char **out, const char *const *parts, size_t n)
{
	size_t len = 1;
	char *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(parts[i]) + 1;
	p = *out = calloc(1, len);
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (parts[i][0])
			p += sprintf(p, "%s%s", p == *out ? "" : " ", parts[i]);
	return 0;
}

/* The table's options (modprobe.d), then the command line's
 * MODULE.PARAM=VALUE (later wins in the kernel, as with modprobe), then
 * async_probe when asked. */
static int module_insert(const struct modtab_module *m, bool async_probe)
{
	char *from_cmdline = NULL, *options = NULL;
	int r = modparams_for(&modload_params, m->name, &from_cmdline);
	const char *parts[3];

	if (r < 0)
		return r;
	parts[0] = m->options ? m->options : "";
	parts[1] = from_cmdline;
	parts[2] = async_probe ? "async_probe" : "";
	r = options_join(&options, parts, 3);
	if (r == 0)
		r = modload_load_fn(m->path, options);
	free(options);
	free(from_cmdline);
	return r;
}

/* Load m and what it needs, adding the modules newly loaded to *count.
 * A failed dependency is reported and m is still tried: the kernel says
 * best whether m can do without it. */
static int module_load(struct modtab_module *m, struct load_stack *st, int *count)
{
	int dep_err, r;

	if (m->loaded || stack_has(st, m) || modload_is_blacklisted(m->name))
		return 0;
	if (st->depth == MODLOAD_MAX_DEPTH)
		return -ELOOP;
	st->mods[st->depth++] = m;
	names_load(m->pre, st, count);
	dep_err = names_load(m->deps, st, count);
	r = st->mark_only ? -EEXIST : module_insert(m, st->async_probe && st->depth == 1);
	if (r == 0 || r == -EEXIST) {
		m->loaded = true;
		*count += r == 0;
		r = 0;
	} else {
		log_warn("loading module %s (%s) failed: %s%s", m->name, m->path,
			 r == -ELIBACC ? "the image has no " LAYOUT_LIBLZMA " to unpack it; rebuild the "
			 "image with this lifeboat" : strerror(-r),
			 dep_err ? " (a module it needs failed first)" : "");
	}
	names_load(m->post, st, count);
	st->depth--;
	return r;
}

struct match_ctx {
	struct load_stack st;
	int matched;
	int count;
	int err;
	bool skip_blacklisted;  /* modprobe.d blacklist applies to alias loads only */
};

static int match_load(struct modtab_module *m, void *data)
{
	struct match_ctx *c = data;
	int r;

	c->matched++;
	if (c->skip_blacklisted && m->blacklisted)
		return 0;
	r = module_load(m, &c->st, &c->count);
	if (r < 0 && c->err == 0)
		c->err = r;
	return 0;
}

/* The table's module of that name ('-' read as '_'), or NULL in *m. */
static int find_by_name(const char *name, struct modtab_module **m)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	name_normalise(n);
	*m = modtab_find(&modload_tab, n);
	free(n);
	return 0;
}

static int name_load(const char *name, bool mark_only)
{
	struct match_ctx c = { .skip_blacklisted = true, .st.mark_only = mark_only };
	struct modtab_module *m;
	int r = find_by_name(name, &m);

	if (r < 0)
		return r;
	if (m) {
		r = module_load(m, &c.st, &c.count);
		return r < 0 ? r : c.count;
	}
	/* Not a module name: an alias such as fs-ext4 or crypto-crc32c. */
	if (modload_is_blacklisted(name))
		return 0;
	modtab_match(&modload_tab, name, match_load, &c);
	if (c.matched == 0)
		return -ENOENT;
	return c.count > 0 ? c.count : c.err;
}

int modload_name(const char *name)
{
	return name_load(name, false);
}

static int match_any(struct modtab_module *m, void *ctx)
{
	(void)m;
	(void)ctx;
	return 1;
}

/* By name or by alias, as name_load looks it up. */
static bool table_knows(const char *name)
{
	struct modtab_module *m;

	return find_by_name(name, &m) == 0 &&
	       (m || modtab_match(&modload_tab, name, match_any, NULL));
}

/* The one load a child does while PID 1 goes on (modload_background). */
static struct {
	pid_t pid;
	char name[128];
} background;

int modload_background(const char *name)
{
	if (background.pid > 0)
		return -EBUSY;
	if (strlen(name) >= sizeof(background.name))
		return -ENAMETOOLONG;
	if (!table_knows(name))
		return -ENOENT;
	background.pid = fork();
	if (background.pid < 0) {
		int r = -errno;

		background.pid = 0;
		return r;
	}
	if (background.pid == 0) {
		int r = name_load(name, false);

		/* The count as the exit status; 255: a module failed (said). */
		_exit(r < 0 ? 255 : r > 254 ? 254 : r);
	}
	snprintf(background.name, sizeof(background.name), "%s", name);
	return 0;
}

int modload_background_join(char *name, size_t size)
{
	pid_t pid = background.pid;
	int status;

	if (pid <= 0)
		return -ECHILD;
	background.pid = 0;
	snprintf(name, size, "%s", background.name);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;  /* reaped elsewhere: the outcome is unknown */
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 255)
		return -EIO;
	/* What the child loaded, PID 1's table has not seen yet. */
	name_load(background.name, true);
	return WEXITSTATUS(status);
}

static int modalias_load(const char *modalias, bool async_probe)
{
	struct match_ctx c = { .skip_blacklisted = true, .st.async_probe = async_probe };

	modtab_match(&modload_tab, modalias, match_load, &c);
	return c.count;
}

int modload_modalias(const char *modalias)
{
	return modalias_load(modalias, true);
}

int modload_modalias_probed(const char *modalias)
{
	return modalias_load(modalias, false);
}

void modload_close(void)
{
	modtab_free(&modload_tab);
	strv_free(&modload_blacklisted);
	strv_free(&modload_params);
}
