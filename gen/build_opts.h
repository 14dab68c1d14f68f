/* build_opts: the settings of `lifeboat build`, from config files and the command line. */
#ifndef LIFEBOAT_BUILD_OPTS_H
#define LIFEBOAT_BUILD_OPTS_H

#include <stdbool.h>

#include "common/strv.h"
#include "gen/feature/microcode.h"
#include "gen/image/image.h"

enum build_mode { BUILD_HOST_ONLY, BUILD_GENERIC };

struct build_opts {
	char *output;
	char *kver;
	char *kmoddir;
	char *config;          /* --config FILE: instead of the system configuration */
	char *cmdline;
	char *firmware_dirs;
	enum build_mode mode;
	enum sink_format compress;
	bool compress_given;   /* --compress or compress =; else the kernel decides (gen/kmod/kernel_rd.h) */
	enum microcode_mode microcode;
	bool verbose;
	char *rescue;          /* --rescue busybox|none|PATH; NULL: busybox if the host has it */
	bool rescue_auth;
	char *rescue_shadow;   /* NULL: /etc/shadow */
	bool net;              /* --net: NIC drivers and NFS (gen/kmod/modsets_net.c) */
	bool iscsi;            /* --iscsi: iscsistart and the iSCSI modules (gen/feature/iscsi_pack.c) */
	bool block_stacks;     /* --block-stacks: lvm, mdadm, cryptsetup (gen/feature/blockstacks.c) */
	bool fsck;             /* --fsck: host-only images get the root's checker (gen/feature/fsckpack.c) */
	bool no_fsck;          /* --no-fsck: no filesystem checker, generic images neither */
	bool clevis;           /* --clevis: the Tang unlock (gen/feature/clevis_pack.c) */
	char *keymap;          /* --keymap NAME: the console layout (gen/feature/keymap_pack.c) */
	/* Lists accumulate over config files and the command line. */
	struct strv add_modules;
	struct strv omit_modules;
	struct strv add_files;
	struct strv add_binaries;
	bool kdump;                 /* --kdump: a capture image (kdump/, gen/feature/kdump_pack.c) */
	struct strv kdump_targets;  /* --kdump-target, tried in order */
	struct strv kdump_options;  /* --kdump-options KEY=VALUE,... */
};

void build_opts_init(struct build_opts *o);
void build_opts_free(struct build_opts *o);
/* Apply one setting by its long option name (also the config key; '_' and
 * '-' are the same). Returns 0, or -EINVAL with the reason reported. */
int build_opts_set(struct build_opts *o, const char *key, const char *value, const char *origin);
/* Parse `lifeboat build` arguments (argv[0] is "build"): the config file
 * first (--config, or the system's), then the arguments over it.
 * Returns 0, or -EINVAL for a usage error (reported). */
int build_opts_parse(struct build_opts *o, int argc, char **argv);
void build_opts_usage(void);

#endif
