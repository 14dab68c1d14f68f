/* fsckpack: choose and add the filesystem checkers. */
#include "gen/feature/fsckpack.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/fsckcheck.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"

/* Each checker path once (e2fsck serves ext2, ext3 and ext4). */
static int add_generic(struct image *img)
{
	const char *added = NULL;
	int r = 0;

	for (size_t i = 0; r == 0 && fsck_checker_at(i); i++) {
		const struct fsck_checker *c = fsck_checker_at(i);

		if ((added && strcmp(added, c->path) == 0) || access(c->path, X_OK) < 0)
			continue;
		r = program_add(img, c->path, NULL);
		added = c->path;
		if (r == 0 && gen_verbose)
			gen_info("fsck: added %s (the root is checked before it is mounted)", c->path);
	}
	return r;
}

static int add_host_only(const struct build_opts *o, const char *root_fstype, struct image *img)
{
	const struct fsck_checker *c = fsck_checker_find(root_fstype);

	if (!c)
		return 0;
	if (!o->fsck) {
		if (gen_verbose)
			gen_info("fsck: %s (for the %s root) is left out of the host-only image "
				 "(about 0.4 MB compressed); --fsck adds it", c->path, root_fstype);
		return 0;
	}
	if (access(c->path, X_OK) < 0) {
		gen_error("--fsck: %s (the checker of the %s root) is missing; install "
			  "e2fsprogs (apt-get install e2fsprogs)", c->path, root_fstype);
		return -ENOENT;
	}
	return program_add(img, c->path, NULL);
}

int fsckpack_add(const struct build_opts *o, const char *root_fstype, struct image *img)
{
	if (o->no_fsck)
		return 0;
	if (o->mode == BUILD_HOST_ONLY)
		return add_host_only(o, root_fstype, img);
	return add_generic(img);
}

/* The host-only scan tells the root's filesystem; a generic image has none. */
static bool fsckpack_wanted(const struct build_ctx *c)
{
	return !c->opts->no_fsck;
}

static int fsckpack_add_files(struct build_ctx *c)
{
	return fsckpack_add(c->opts, c->host ? c->host->stack.root_fstype : NULL, c->img);
}

const struct feature fsckpack_feature = {
	.name = "fsck",
	.wanted = fsckpack_wanted,
	.add_files = fsckpack_add_files,
};
