/* hooks_pack: what the build host's hooks.d executables ask the image to
 * carry (docs/extending.md): they run while the module set is open, so
 * their modules join it with their dependencies; their files, programs,
 * command-line defaults and boot scripts are added after, from the
 * requests kept in build_ctx.hooks.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/feature/iscsi_pack.h"
#include "gen/feature/rescue_pack.h"
#include "gen/gen_report.h"
#include "gen/host/hookdirs.h"
#include "gen/host/hooktmp.h"

/* Every build asks its hooks: a directory without any costs a readdir. */
static bool hooks_wanted(const struct build_ctx *c)
{
	return c->hooks != NULL;
}

static int hooks_run(const struct build_ctx *c)
{
	static const char *const system_dirs[] = { HOOKDIRS_PACKAGE, HOOKDIRS_ADMIN };
	const struct build_opts *o = c->opts;
	struct hookdirs_env env = { .kver = c->kver, .moddir = c->moddir, .verbose = o->verbose,
					  .mode = o->mode == BUILD_GENERIC ? "generic" : "host-only" };
	struct hook_set set;
	int r = o->hooks_dirs.len ? hookdirs_list((const char *const *)o->hooks_dirs.items,
						  o->hooks_dirs.len, &set)
				  : hookdirs_list(system_dirs, 2, &set);

	if (r < 0)
		return r;
	if (set.len && (r = hooktmp_make(c->hooks_tmp, PATH_MAX)) < 0) {
		hookdirs_free(&set);
		return r;
	}
	env.tmpdir = c->hooks_tmp;
	r = hookdirs_run(&set, &env, HOOKDIRS_TIMEOUT_MS, c->hooks);
	hookdirs_free(&set);
	return r;
}

static int hooks_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	int r = hooks_run(c);

	for (size_t i = 0; r == 0 && i < c->hooks->len; i++) {
		const struct hookreq *q = &c->hooks->items[i];
		char why[NAME_MAX + 32];

		if (q->kind != HOOKREQ_MODULE)
			continue;
		snprintf(why, sizeof(why), "hook %s", q->hook);
		r = kmods_add(k, q->arg, why);
		if (r < 0)
			gen_error("hooks: the module above is what %s asked for (its line %u)",
				  q->hook, q->line);
	}
	return r;
}

/* The host file a request names must be there to read: said with the
 * hook and its line, not later by the image writer. */
static int readable(const struct hookreq *q)
{
	int r = access(q->arg, R_OK) == 0 ? 0 : -errno;

	if (r < 0)
		gen_error("hooks: %s, line %u (%s %s): cannot read %s: %s", q->hook, q->line,
			  hookreq_kind_name(q->kind), q->arg, q->arg, strerror(-r));
	return r;
}

static int add_file(struct image *img, const struct hookreq *q)
{
	int r = readable(q);

	if (r < 0)
		return r;
	return q->dest ? image_add_file(img, q->arg, q->dest, 0) : image_add_host_path(img, q->arg);
}

static int add_program(struct image *img, const struct hookreq *q)
{
	int r = readable(q);

	return r < 0 ? r : program_add(img, q->arg, q->dest);
}

/* A script runs in the image: its interpreter must be there (busybox's sh
 * is, when the image has the rescue's busybox: the init unpacks it before
 * the first script), an ELF program's libraries are added. */
static int script_runnable(const struct build_ctx *c, const struct hookreq *q)
{
	char interp[PATH_MAX];
	int r = program_kind(q->arg, interp, sizeof(interp));

	if (r == -ENOEXEC)
		gen_error("hooks: %s, line %u: the script %s is neither an ELF program nor has a "
			  "#! line naming its interpreter", q->hook, q->line, q->arg);
	else if (r < 0)
		gen_error("hooks: %s, line %u: cannot read the script %s: %s", q->hook, q->line,
			  q->arg, strerror(-r));
	if (r < 0)
		return r;
	if (r == 0)
		return program_add_libraries(c->img, q->arg);
	if (image_has(c->img, interp))
		return 0;
	if ((strcmp(interp, "/bin/sh") == 0 || strcmp(interp, "/usr/bin/sh") == 0) &&
	    rescue_pack_busybox(c->opts))
		return 0;
	gen_error("hooks: %s, line %u: the script %s runs with %s, which the image does not "
		  "have: ask for it with 'program %s'%s", q->hook, q->line, q->arg, interp, interp,
		  strcmp(interp, "/bin/sh") == 0 ? " or build with --rescue busybox" : "");
	return -ENOENT;
}

/* At LAYOUT_HOOK_SCRIPTS/STAGE/NAME, executable; two scripts of one name
 * in one stage would be one file. */
static int add_script(const struct build_ctx *c, const struct hookreq *q)
{
	const char *base = strrchr(q->arg, '/') + 1;
	char dst[PATH_MAX];
	int r = readable(q);

	if (r == 0)
		r = script_runnable(c, q);
	if (r < 0)
		return r;
	snprintf(dst, sizeof(dst), "%s/%s/%s", LAYOUT_HOOK_SCRIPTS, q->stage, base);
	if (image_has(c->img, dst)) {
		gen_error("hooks: %s, line %u: a %s script named %s is already in the image; "
			  "give the scripts of one stage different names", q->hook, q->line,
			  q->stage, base);
		return -EEXIST;
	}
	gen_info("hooks: %s adds the %s script %s", q->hook, q->stage, base);
	return image_add_file(c->img, q->arg, dst, 0755);
}

/* The cmdline requests, in the hooks' order, as one file of defaults. */
static int add_cmdline(const struct build_ctx *c)
{
	size_t len = 0;
	char *text = NULL;
	int r;

	for (size_t i = 0; i < c->hooks->len; i++) {
		const struct hookreq *q = &c->hooks->items[i];
		char *grown;

		if (q->kind != HOOKREQ_CMDLINE)
			continue;
		grown = realloc(text, len + strlen(q->arg) + 2);
		if (!grown) {
			free(text);
			return -ENOMEM;
		}
		text = grown;
		len += (size_t)sprintf(text + len, "%s%s", len ? " " : "", q->arg);
	}
	if (!text)
		return 0;
	strcpy(text + len, "\n");
	/* CHAP secrets: readable by root only, also once unpacked. */
	r = image_add_data(c->img, LAYOUT_CMDLINE_HOOKS, text, len + 1,
			   iscsi_pack_has_secrets(text) ? 0600 : 0644);
	free(text);
	return r;
}

/* Files and programs first: a script's interpreter may be one of them. */
static int hooks_pack_add_files(struct build_ctx *c)
{
	int r = add_cmdline(c);

	for (size_t i = 0; r == 0 && i < c->hooks->len; i++) {
		const struct hookreq *q = &c->hooks->items[i];

		if (q->kind == HOOKREQ_FILE)
			r = add_file(c->img, q);
		else if (q->kind == HOOKREQ_PROGRAM)
			r = add_program(c->img, q);
		else if (q->kind == HOOKREQ_SYMLINK)
			r = image_add_symlink(c->img, q->dest, q->arg);
		else if (q->kind == HOOKREQ_DIR)
			r = image_add_dir(c->img, q->arg, 0755);
	}
	for (size_t i = 0; r == 0 && i < c->hooks->len; i++)
		if (c->hooks->items[i].kind == HOOKREQ_SCRIPT)
			r = add_script(c, &c->hooks->items[i]);
	return r;
}

const struct feature hooks_pack_feature = {
	.name = "hooks",
	.wanted = hooks_wanted,
	.add_modules = hooks_pack_modules,
	.add_files = hooks_pack_add_files,
};
