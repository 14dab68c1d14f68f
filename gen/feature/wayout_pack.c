/* wayout_pack: the way out at shutdown (lifeboat-shutdown, docs/shutdown.md),
 * in the images whose root may need it: every generic image, and a
 * host-only one whose host's root has a layer under it to take down. */
#include "gen/feature/wayout_pack.h"

#include <limits.h>

#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"

bool wayout_pack_host_needs(const struct host_facts *h)
{
	const struct host_scan *s = &h->stack;

	if (h->root_nfs || h->iscsi_session)
		return true;
	/* A root that could not be followed (a container's overlay) may sit
	 * on anything: the init decides at boot (shutdown/leave.c). */
	if (!s->root_seen)
		return true;
	/* The init leaves the way out for a device-mapper or md root. */
	return s->lvm || s->n_luks > 0 || s->n_md > 0 ||
	       strv_contains(&s->root_modules, "dm_mod") || strv_contains(&s->root_modules, "md_mod");
}

/* A generic image may boot any root. A host-only one carries the way out
 * for its host's root as read, or when asked for the stacks or the
 * network roots that need it (--block-stacks, --iscsi, --net). A plain
 * root's filesystem is remounted read-only by the real init and nothing
 * under it is left to take down: 0.29 MB the image need not carry. */
static bool wayout_pack_wanted(const struct build_ctx *c)
{
	const struct build_opts *o = c->opts;

	return !c->host || o->block_stacks || o->iscsi || o->net || wayout_pack_host_needs(c->host);
}

static int wayout_pack_add_files(struct build_ctx *c)
{
	char way_out[PATH_MAX];
	int r = program_find_own("lifeboat-shutdown", way_out, sizeof(way_out));

	/* The init leaves it in /run/initramfs for the shutdown. */
	return r < 0 ? r : program_add_packed(c->img, way_out, LAYOUT_SHUTDOWN_XZ);
}

const struct feature wayout_pack_feature = {
	.name = "way out",
	.wanted = wayout_pack_wanted,
	.add_files = wayout_pack_add_files,
};
