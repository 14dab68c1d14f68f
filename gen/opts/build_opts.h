/* build_opts: the settings of `lifeboat build`, from config files and the command line. */
#ifndef LIFEBOAT_BUILD_OPTS_H
#define LIFEBOAT_BUILD_OPTS_H

#include <stdbool.h>

#include "common/strv.h"
#include "gen/image/image.h"

enum build_mode { BUILD_HOST_ONLY, BUILD_GENERIC };

/* --microcode (gen/feature/microcode.c adds it). */
enum microcode_mode {
	MICROCODE_AUTO,   /* the host CPU's for host-only images, all for generic ones */
	MICROCODE_ALL,
	MICROCODE_NONE,
};

/* --kver all: every installed kernel (gen/cmd/build_all.c). */
#define BUILD_KVER_ALL "all"

struct build_opts {
	char *output;
	char *kver;            /* NULL: the running kernel's; "all": each installed one */
	unsigned jobs;         /* --jobs; 0: the online CPUs */
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
	bool live;             /* --live: a root image over HTTP(S) (gen/feature/live_pack.c) */
	char *live_ca;         /* --live-ca FILE: its https:// servers' CA; NULL: the host's bundle */
	bool iscsi;            /* --iscsi: iscsistart and the iSCSI modules (gen/feature/iscsi_pack.c) */
	bool nvmf;             /* --nvmf: the NVMe over TCP modules (gen/feature/nvmf_pack.c) */
	bool multipath;        /* --multipath: multipath, kpartx, dm-multipath (gen/feature/mpath_pack.c) */
	bool block_stacks;     /* --block-stacks: lvm, mdadm, cryptsetup (gen/feature/blockstacks.c) */
	bool tpm2;             /* --tpm2: unlock LUKS2 systemd-tpm2 tokens (gen/feature/systoken_pack.c) */
	bool fido2;            /* --fido2: unlock LUKS2 systemd-fido2 tokens (gen/feature/systoken_pack.c) */
	bool pkcs11;           /* --pkcs11: unlock LUKS2 systemd-pkcs11 tokens (gen/feature/systoken_pack.c) */
	bool fsck;             /* --fsck: host-only images get the root's checker (gen/feature/fsckpack.c) */
	bool no_fsck;          /* --no-fsck: no filesystem checker, generic images neither */
	bool clevis;           /* --clevis: the Tang unlock (gen/feature/clevis_pack.c) */
	char *keymap;          /* --keymap NAME: the console layout (gen/feature/keymap_pack.c) */
	char *font;            /* --font NAME|FILE: the console font (gen/feature/font_pack.c) */
	/* Lists accumulate over config files and the command line. */
	struct strv add_modules;
	struct strv omit_modules;
	struct strv add_files;
	struct strv add_binaries;
	/* --hooks-dir: read these hooks.d directories, in order, instead of
	 * the system's two (gen/host/hookdirs.h); empty: the system's. */
	struct strv hooks_dirs;
	bool ssh;                   /* --ssh: an SSH server for unlock and rescue (gen/feature/ssh_pack.c) */
	char *ssh_authorized_keys;  /* NULL: /etc/lifeboat/authorized_keys, else root's */
	char *ssh_host_key;         /* NULL: /etc/lifeboat/ssh_host_ed25519_key, made if missing */
	unsigned int ssh_port;      /* --ssh-port; 0: the init's default (22) */
	bool kdump;                 /* --kdump: a capture image (kdump/, gen/feature/kdump_pack.c) */
	struct strv kdump_targets;  /* --kdump-target, tried in order */
	struct strv kdump_options;  /* --kdump-options KEY=VALUE,... */
	/* --uki: a unified kernel image (gen/uki/uki_build.h) instead of an initramfs. */
	bool uki;
	char *uki_stub;             /* NULL: systemd-boot-efi's linuxx64.efi.stub */
	char *kernel_image;         /* NULL: /boot/vmlinuz-VERSION */
	char *sign_key;             /* --sign-key/--sign-cert: signed with sbsign */
	char *sign_cert;
	bool uki_loader_cmdline;    /* --uki-loader-cmdline: no .cmdline, the loader's options */
	char *uki_cmdline;          /* decided by the parse (gen/uki/uki_cmdline.h); NULL: none */
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
