/* build_ctx: what one `lifeboat build` knows, decided once and handed to
 * every step: the options, the build host as read once (host-only images),
 * the init, and the images being filled. */
#ifndef LIFEBOAT_BUILD_CTX_H
#define LIFEBOAT_BUILD_CTX_H

#include "gen/opts/build_opts.h"
#include "gen/host/hookreq.h"
#include "gen/host/hostfacts.h"
#include "gen/image/image.h"

struct build_ctx {
	const struct build_opts *opts;
	/* Host-only images: the host, read once (gen/host/hostfacts.h).
	 * NULL for a generic image, which must not depend on the build host. */
	const struct host_facts *host;
	const char *init;        /* the host path of lifeboat-init */
	const char *kver;        /* the kernel the image is for */
	const char *moddir;      /* its modules' directory */
	struct image *img;
	struct image *early;     /* the uncompressed archive in front (microcode); NULL: none */
	/* --ssh: the host key's type and fingerprint ("ssh-ed25519
	 * SHA256:..."), for build.conf; empty: no server. */
	char ssh_host_key[128];
	/* What the hooks.d executables asked for: they run while the module
	 * set is open (their modules go in it), their files are added after
	 * (gen/feature/hooks_pack.c). The build's, freed when it ends. */
	struct hookreq_list *hooks;
	/* Their scratch directory (LIFEBOAT_TMPDIR, gen/host/hooktmp.h), made
	 * when there are hooks to run, of PATH_MAX bytes; "" until then. */
	char *hooks_tmp;
};

#endif
