/* nvmf_pack: put the NVMe over TCP modules and the host's NQN and ID into the image. */
#include "gen/feature/nvmf_pack.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/featuremods.h"
#include "common/layout.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"
#include "gen/host/nvmfhost.h"

/* nvme-tcp's dependencies come with it; named, so that -v says why. */
static const char *const modules[] = {
	FEATUREMODS_NVMF, "nvme_fabrics", "nvme_core",
};

bool nvmf_pack_wanted(const struct build_ctx *c)
{
	return c->opts->nvmf || (c->host && c->host->nvmf_tcp);
}

static int nvmf_pack_modules(const struct build_ctx *c, struct kmods *k)
{
	(void)c;
	return kmods_add_list(k, modules, sizeof(modules) / sizeof(modules[0]), false, "NVMe/TCP root");
}

/* The host's file, else what the kernel says the host connected as. */
static int identity_add(struct image *img, const char *path, const char *kernel_value)
{
	char line[256];

	if (access(path, R_OK) == 0)
		return image_add_file(img, path, path, 0644);
	if (!kernel_value[0])
		return 0;
	snprintf(line, sizeof(line), "%s\n", kernel_value);
	return image_add_data(img, path, line, strlen(line), 0644);
}

/* A host-only image: the host's identity, and the words that connect its
 * controllers again (each controller's address; Linux's target, as most,
 * answers discovery on its subsystems' ports). A generic image boots
 * other machines, which must not share an identity: their command line
 * names it. */
static int nvmf_pack_add_files(struct build_ctx *c)
{
	struct nvmfhost_conn conn;
	char line[sizeof(conn.words) + 2];
	int r;

	if (c->opts->mode != BUILD_HOST_ONLY)
		return 0;
	nvmfhost_conn_read("/sys", &conn);
	r = identity_add(c->img, LAYOUT_NVME_HOSTNQN, conn.hostnqn);
	if (r == 0)
		r = identity_add(c->img, LAYOUT_NVME_HOSTID, conn.hostid);
	if (r == 0 && access(LAYOUT_NVME_HOSTNQN, R_OK) < 0 && !conn.hostnqn[0])
		gen_warn("--nvmf: the host has no %s and no NVMe/TCP controller; the boot needs "
			 "rd.nvmf.hostnqn= and rd.nvmf.hostid=", LAYOUT_NVME_HOSTNQN);
	if (r < 0 || !conn.words[0])
		return r;
	if (gen_verbose)
		gen_info("--nvmf: %s: %s", LAYOUT_CMDLINE_NVMF, conn.words);
	snprintf(line, sizeof(line), "%s\n", conn.words);
	return image_add_data(c->img, LAYOUT_CMDLINE_NVMF, line, strlen(line), 0644);
}

const struct feature nvmf_pack_feature = {
	.name = "NVMe/TCP",
	.wanted = nvmf_pack_wanted,
	.add_modules = nvmf_pack_modules,
	.add_files = nvmf_pack_add_files,
};
