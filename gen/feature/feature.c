/* feature: the table of the image's optional parts, in the order they are added.
 *
 * The order is the generator's output order for -v and for errors: the
 * network modules before iSCSI's (iSCSI needs the network), the SSH
 * server after them, the hooks.d requests after every feature of lifeboat's
 * own (a script may run a program one of them added), liblzma (unxz)
 * after every feature that stores xz streams, as it asks the image whether
 * it holds one, and the microcode last (it is an archive of its own,
 * written in front).
 */
#include "gen/feature/feature.h"

#include <stddef.h>

const struct feature *const feature_table[] = {
	&wayout_pack_feature,
	&rescue_pack_feature,
	&blockstacks_feature,
	&systoken_tpm2_feature,
	&systoken_fido2_feature,
	&systoken_pkcs11_feature,
	&fsckpack_feature,
	&kdump_pack_feature,
	&net_pack_feature,
	&iscsi_pack_feature,
	&nvmf_pack_feature,
	&mpath_pack_feature,
	&live_pack_feature,
	&resume_pack_feature,
	&ssh_pack_feature,
	&clevis_pack_feature,
	&keymap_pack_feature,
	&font_pack_feature,
	&hooks_pack_feature,
	&unxz_pack_feature,
	&microcode_feature,
	NULL,
};
