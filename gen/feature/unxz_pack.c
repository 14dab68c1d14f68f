/* unxz_pack: liblzma, in the images that hold xz streams the init unpacks
 * (bootlib/unxz.c): a generic image's modules, busybox for the rescue
 * shell, the way out. The init does not link it but opens it (dlopen)
 * when it meets such a stream, so a host-only image of plain modules and
 * no xz'd program leaves out its 0.19 MB. */
#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"

/* Asked after the features that store xz streams (feature.c's order). */
static bool unxz_pack_wanted(const struct build_ctx *c)
{
	return image_has_xz(c->img);
}

/* Found as the init's loader would find it, with what it needs; a host
 * without it is reported by the search (gen/elf/libdeps.c). */
static int unxz_pack_add_files(struct build_ctx *c)
{
	return program_add_dlopen(c->img, c->init, LAYOUT_LIBLZMA);
}

const struct feature unxz_pack_feature = {
	.name = "unxz",
	.wanted = unxz_pack_wanted,
	.add_files = unxz_pack_add_files,
};
