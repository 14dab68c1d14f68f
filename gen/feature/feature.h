/* feature: each optional part of the image is one entry of a table that
 * the build walks (gen/cmd/build.c), instead of a ladder of ifs there.
 *
 * A feature says whether this build wants it, then adds its kernel modules
 * (while the module set is open) and its files (programs, configuration).
 * Each lives in its own file under gen/feature/.
 */
#ifndef LIFEBOAT_FEATURE_H
#define LIFEBOAT_FEATURE_H

#include <stdbool.h>

#include "gen/opts/build_ctx.h"
#include "gen/kmod/kmods.h"

struct feature {
	const char *name;
	bool (*wanted)(const struct build_ctx *c);
	/* Its modules; NULL: none. Returns 0 or -errno (reported). */
	int (*add_modules)(const struct build_ctx *c, struct kmods *k);
	/* Its files; NULL: none. Returns 0 or -errno (reported). */
	int (*add_files)(struct build_ctx *c);
};

extern const struct feature wayout_pack_feature;     /* gen/feature/wayout_pack.c */
extern const struct feature rescue_pack_feature;     /* gen/feature/rescue_pack.c */
extern const struct feature blockstacks_feature;     /* gen/feature/blockstacks.c */
extern const struct feature systoken_tpm2_feature;       /* gen/feature/systoken_pack.c */
extern const struct feature systoken_fido2_feature;      /* gen/feature/systoken_pack.c */
extern const struct feature systoken_pkcs11_feature;     /* gen/feature/systoken_pack.c */
extern const struct feature fsckpack_feature;        /* gen/feature/fsckpack.c */
extern const struct feature kdump_pack_feature;      /* gen/feature/kdump_pack.c */
extern const struct feature net_pack_feature;        /* gen/feature/net_pack.c */
extern const struct feature iscsi_pack_feature;      /* gen/feature/iscsi_pack.c */
extern const struct feature nvmf_pack_feature;       /* gen/feature/nvmf_pack.c */
extern const struct feature mpath_pack_feature;      /* gen/feature/mpath_pack.c */
extern const struct feature live_pack_feature;       /* gen/feature/live_pack.c */
extern const struct feature resume_pack_feature;     /* gen/feature/resume_pack.c */
extern const struct feature ssh_pack_feature;        /* gen/feature/ssh_pack.c */
extern const struct feature clevis_pack_feature;     /* gen/feature/clevis_pack.c */
extern const struct feature keymap_pack_feature;     /* gen/feature/keymap_pack.c */
extern const struct feature font_pack_feature;       /* gen/feature/font_pack.c */
extern const struct feature unxz_pack_feature;       /* gen/feature/unxz_pack.c */
extern const struct feature microcode_feature;       /* gen/feature/microcode.c */
extern const struct feature hooks_pack_feature;      /* gen/feature/hooks_pack.c */

/* Every feature, in the order the build adds them; NULL-terminated. */
extern const struct feature *const feature_table[];

#endif
