/* iscsi_pack: put iscsistart, its libraries, the iSCSI modules and the initiator name into the image. */
#include "gen/feature/iscsi_pack.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "common/redact.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"


/* Where distributions install it (merged /usr or not). */
static const char *const iscsistart_paths[] = {
	"/usr/sbin/iscsistart", "/sbin/iscsistart", "/usr/bin/iscsistart",
};

static const char *const modules[] = {
	FEATUREMODS_ISCSI,   /* what the init loads by name */
	"libiscsi", "libiscsi_tcp", "scsi_transport_iscsi",
};

bool iscsi_pack_wanted(const struct build_ctx *c)
{
	return c->opts->iscsi || (c->host && c->host->iscsi_session);
}

/* iscsi_tcp, libiscsi, scsi_transport_iscsi, sd_mod, and iscsi_ibft when
 * the kernel has it (rd.iscsi.firmware). */
static int iscsi_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	int r = kmods_add_list(k, modules, sizeof(modules) / sizeof(modules[0]), false, "iSCSI root");

	(void)c;
	return r == 0 ? kmods_add_optional(k, FEATUREMODS_ISCSI_FIRMWARE, "rd.iscsi.firmware") : r;
}

/* iscsistart at /sbin/iscsistart with its libraries, and the host's
 * /etc/iscsi/initiatorname.iscsi when there is one. */
static int iscsi_pack_add_files(struct build_ctx *c)
{
	const struct build_opts *o = c->opts;
	struct image *img = c->img;
	const char *src = NULL;
	int r;

	for (size_t i = 0; !src && i < sizeof(iscsistart_paths) / sizeof(iscsistart_paths[0]); i++)
		if (access(iscsistart_paths[i], X_OK) == 0)
			src = iscsistart_paths[i];
	if (!src) {
		gen_error("--iscsi: iscsistart is not installed (looked in /usr/sbin, /sbin, "
			  "/usr/bin); install open-iscsi");
		return -ENOENT;
	}
	r = program_add(img, src, LAYOUT_ISCSISTART);
	/* The host's name is for the host: a generic image boots other
	 * machines, which must not share it (the init makes one from the MAC). */
	if (r == 0 && o->mode == BUILD_HOST_ONLY && access(LAYOUT_ISCSI_INITIATOR, R_OK) == 0)
		r = image_add_file(img, LAYOUT_ISCSI_INITIATOR, LAYOUT_ISCSI_INITIATOR, 0644);
	else if (r == 0 && gen_verbose)
		gen_info("--iscsi: no %s in the image (%s); the initiator name will be "
			 "rd.iscsi.initiator= or one made from the MAC address", LAYOUT_ISCSI_INITIATOR,
			 o->mode == BUILD_HOST_ONLY ? "the host has none" : "a generic image");
	return r;
}

bool iscsi_pack_has_secrets(const char *cmdline)
{
	return cmdline && redact_has_secrets(cmdline);
}

void iscsi_pack_redact(const char *cmdline, char *out, size_t size)
{
	redact_cmdline(cmdline, out, size);
}

const struct feature iscsi_pack_feature = {
	.name = "iSCSI",
	.wanted = iscsi_pack_wanted,
	.add_modules = iscsi_pack_modules,
	.add_files = iscsi_pack_add_files,
};
