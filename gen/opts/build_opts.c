/* build_opts: the settings of `lifeboat build`, from config files and the command line. */
#include "gen/opts/build_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/opts/config.h"
#include "gen/gen_report.h"
#include "gen/kmod/kernel_rd.h"
#include "gen/uki/uki_cmdline.h"
#include "gen/uki/uki_sign.h"

typedef int (*opt_fn)(struct build_opts *o, const char *value, size_t offset);

struct opt_def {
	const char *name;
	char short_name;
	bool takes_value;
	opt_fn apply;
	size_t offset;
	const char *help;
};

static int set_string(struct build_opts *o, const char *value, size_t offset)
{
	char **dst = (char **)((char *)o + offset);
	char *copy = strdup(value);

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

static int add_list(struct build_opts *o, const char *value, size_t offset)
{
	return strv_split_append((struct strv *)((char *)o + offset), value, ", ");
}

static int set_generic(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	o->mode = BUILD_GENERIC;
	return 0;
}

static int set_host_only(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	o->mode = BUILD_HOST_ONLY;
	return 0;
}

static int set_mode(struct build_opts *o, const char *value, size_t offset)
{
	(void)offset;
	if (strcmp(value, "generic") == 0)
		return set_generic(o, value, 0);
	if (strcmp(value, "host-only") == 0 || strcmp(value, "hostonly") == 0)
		return set_host_only(o, value, 0);
	return -EINVAL;
}

static int set_compress(struct build_opts *o, const char *value, size_t offset)
{
	(void)offset;
	o->compress_given = true;
	return sink_format_parse(value, &o->compress);
}

static int set_microcode(struct build_opts *o, const char *value, size_t offset)
{
	static const char *const names[] = { [MICROCODE_AUTO] = "auto", [MICROCODE_ALL] = "all",
					     [MICROCODE_NONE] = "none" };

	(void)offset;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(value, names[i]) == 0) {
			o->microcode = (enum microcode_mode)i;
			return 0;
		}
	return -EINVAL;
}

static int set_verbose(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	o->verbose = true;
	return 0;
}

static int set_net(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	o->net = true;
	return 0;
}

/* A live root is fetched over the network. */
static int set_live(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	o->live = o->net = true;
	return 0;
}

/* --live-ca FILE: the CAs a live root's https:// server is checked
 * against, instead of the host's bundle; it implies --live. */
static int set_live_ca(struct build_opts *o, const char *value, size_t offset)
{
	o->live = o->net = true;
	return set_string(o, value, offset);
}

/* --jobs N: 1 to 1024 builds at a time (with --kver all). */
static int set_jobs(struct build_opts *o, const char *value, size_t offset)
{
	char *end;
	unsigned long n = strtoul(value, &end, 10);

	(void)offset;
	if (*value < '0' || *value > '9' || *end || n < 1 || n > 1024)
		return -EINVAL;
	o->jobs = (unsigned)n;
	return 0;
}

/* --ssh-port: 1..65535. */
static int set_ssh_port(struct build_opts *o, const char *value, size_t offset)
{
	char *end;
	unsigned long v;

	(void)offset;
	if (!*value || *value == '-' || *value == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno || *end || v == 0 || v > 65535)
		return -EINVAL;
	o->ssh_port = (unsigned int)v;
	return 0;
}

/* The Tang unlock needs cryptsetup and the network. */
static int set_clevis(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	o->clevis = o->block_stacks = o->net = true;
	return 0;
}

/* A flag option that turns a bool field on. */
static int set_flag(struct build_opts *o, const char *value, size_t offset)
{
	(void)value;
	*(bool *)((char *)o + offset) = true;
	return 0;
}

#define F(f) offsetof(struct build_opts, f)

static const struct opt_def opt_defs[] = {
	{ "output",        'o', true,  set_string,    F(output),        "FILE: the image to write (with --kver all: %k is each version)" },
	{ "kver",          'k', true,  set_string,    F(kver),          "VERSION|all: kernel version (default: the running one; all: every installed one, in parallel)" },
	{ "jobs",          'j', true,  set_jobs,      0,                "N: with --kver all, builds at a time (default: the online CPUs)" },
	{ "kmoddir",       0,   true,  set_string,    F(kmoddir),       "DIR: modules tree (INSTALL_MOD_PATH or lib/modules/VERSION)" },
	{ "generic",       0,   false, set_generic,   0,                "every storage, filesystem and virtio driver" },
	{ "host-only",     0,   false, set_host_only, 0,                "only what this machine needs (default)" },
	{ "mode",          0,   true,  set_mode,      0,                "generic|host-only (config files)" },
	{ "add-modules",   0,   true,  add_list,      F(add_modules),   "M,...: modules to add" },
	{ "omit-modules",  0,   true,  add_list,      F(omit_modules),  "M,...: modules never to add" },
	{ "add-files",     0,   true,  add_list,      F(add_files),     "SRC[:DST],...: files to add" },
	{ "add-binaries",  0,   true,  add_list,      F(add_binaries),  "PATH,...: programs to add with their libraries" },
	{ "hooks-dir",     0,   true,  add_list,      F(hooks_dirs),    "DIR,...: run the hooks of these directories instead of /usr/lib/lifeboat/hooks.d and /etc/lifeboat/hooks.d (docs/extending.md)" },
	{ "compress",      0,   true,  set_compress,  0,                "gzip|zstd|xz|lz4|none" },
	{ "microcode",     0,   true,  set_microcode, 0,                "auto|all|none: early x86 microcode (auto: this CPU's if host-only)" },
	{ "cmdline",       0,   true,  set_string,    F(cmdline),       "'...': kernel parameters built into the image" },
	{ "firmware-dirs", 0,   true,  set_string,    F(firmware_dirs), "DIR:...: where firmware is looked up" },
	{ "rescue",        0,   true,  set_string,    F(rescue),        "busybox|none|PATH: the rescue shell (default: busybox in generic images)" },
	{ "rescue-auth",   0,   false, set_flag,      F(rescue_auth),   "ask for root's password before the rescue shell (docs/rescue.md)" },
	{ "rescue-shadow", 0,   true,  set_string,    F(rescue_shadow), "FILE: where --rescue-auth reads root's hash (default /etc/shadow)" },
	{ "config",        0,   true,  set_string,    F(config),        "FILE: read this instead of /etc/lifeboat.conf{,.d}" },
	{ "verbose",       'v', false, set_verbose,   0,                "say what is added and why" },
	{ "net",           0,   false, set_net,       0,                "network root: NIC drivers, NFS client (docs/network.md)" },
	{ "live",          0,   false, set_live,      0,                "root=live:URL: a squashfs or erofs root fetched over HTTP(S) into RAM (libcurl, CA bundle, loop, overlay; implies --net; docs/network.md)" },
	{ "live-ca",       0,   true,  set_live_ca,   F(live_ca),       "FILE: the CA certificates (PEM) a live root's https:// server must be signed by (default: the host's bundle; implies --live)" },
	{ "iscsi",         0,   false, set_flag,      F(iscsi),         "iSCSI root: iscsistart, iSCSI and NIC modules (docs/network.md)" },
	{ "nvmf",          0,   false, set_flag,      F(nvmf),          "NVMe over TCP root (rd.nvmf.*): nvme-tcp and NIC modules (host-only: when a controller is over TCP; docs/network.md)" },
	{ "multipath",     0,   false, set_flag,      F(multipath),     "multipath SAN root: multipath, kpartx, dm-multipath (host-only: when the root is on a map; docs/blockstacks.md)" },
	{ "block-stacks",  0,   false, set_flag,      F(block_stacks),  "LUKS, LVM, md RAID: cryptsetup, lvm, mdadm (host-only: those the root uses)" },
	{ "tpm2",          0,   false, set_flag,      F(tpm2),          "TPM2 unlock of LUKS2 (systemd-cryptenroll) with --block-stacks (host-only: when a token asks)" },
	{ "fido2",         0,   false, set_flag,      F(fido2),         "FIDO2 security-key unlock of LUKS2 (systemd-cryptenroll) with --block-stacks (host-only: when a token asks)" },
	{ "pkcs11",        0,   false, set_flag,      F(pkcs11),        "PKCS#11 smart-card/token unlock of LUKS2 (systemd-cryptenroll) with --block-stacks: p11-kit and the host's modules (host-only: when a token asks)" },
	{ "fsck",          0,   false, set_flag,      F(fsck),          "host-only: add the root filesystem's checker (e2fsck; generic images have it)" },
	{ "no-fsck",       0,   false, set_flag,      F(no_fsck),       "add no filesystem checker, not even to generic images" },
	{ "ssh",           0,   false, set_flag,      F(ssh),           "an SSH server (dropbear) to unlock and rescue from afar (docs/remote.md)" },
	{ "ssh-authorized-keys", 0, true, set_string, F(ssh_authorized_keys), "FILE: the keys that may log in (default /etc/lifeboat/authorized_keys, else root's)" },
	{ "ssh-host-key",  0,   true,  set_string,    F(ssh_host_key),  "FILE: the image's host key, made once (default /etc/lifeboat/ssh_host_ed25519_key)" },
	{ "ssh-port",      0,   true,  set_ssh_port,  0,                "PORT: where the server listens (default 22; rd.ssh.port= at boot)" },
	{ "clevis",        0,   false, set_clevis,    0,                "unlock LUKS roots bound with clevis luks bind (tang, tpm2, sss; implies --block-stacks --net)" },
	{ "keymap",        0,   true,  set_string,    F(keymap),        "NAME: the keyboard layout at the prompts (console keymap or XKB layout; host-only: the host's)" },
	{ "font",          0,   true,  set_string,    F(font),          "NAME|FILE: the console font at the prompts (PSF; host-only: the host's vconsole.conf FONT= or console-setup's)" },
	{ "kdump",         0,   false, set_flag,      F(kdump),         "a kdump capture image (docs/kdump.md)" },
	{ "kdump-target",  0,   true,  add_list,      F(kdump_targets), "T,...: where dumps go, in order: UUID=|LABEL=|/dev/...[:/DIR], nfs:..., URL[;cafile=F][;sshkey=F;knownhosts=F]" },
	{ "kdump-options", 0,   true,  add_list,      F(kdump_options), "K=V,...: level=31 format=kdump+elf compress=zlib|lzo|zstd action=reboot|poweroff|shell cafile=F (https targets without their own) netrc=F" },
	{ "uki",           0,   false, set_flag,      F(uki),           "write a unified kernel image (EFI executable): stub, kernel, this image, --cmdline or /etc/kernel/cmdline, os-release" },
	{ "uki-stub",      0,   true,  set_string,    F(uki_stub),      "FILE: the EFI stub (default: systemd-boot-efi's linuxx64.efi.stub)" },
	{ "kernel-image",  0,   true,  set_string,    F(kernel_image),  "FILE: the kernel for --uki (default /boot/vmlinuz-VERSION)" },
	{ "sign-key",      0,   true,  set_string,    F(sign_key),      "FILE: sign the --uki image with sbsign for Secure Boot (with --sign-cert)" },
	{ "sign-cert",     0,   true,  set_string,    F(sign_cert),     "FILE: the certificate (PEM) for --sign-key" },
	{ "uki-loader-cmdline", 0, false, set_flag,   F(uki_loader_cmdline), "no .cmdline: the boot loader's options are the command line, also of a signed image under Secure Boot (lifeboat(8))" },
};

#define N_OPTS (sizeof(opt_defs) / sizeof(opt_defs[0]))

/* Config keys may use '_' where options use '-'. */
static bool name_equal(const char *def, const char *key, size_t len)
{
	if (strlen(def) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (def[i] != key[i] && !(def[i] == '-' && key[i] == '_'))
			return false;
	return true;
}

static const struct opt_def *opt_find(const char *key, size_t len)
{
	for (size_t i = 0; i < N_OPTS; i++)
		if (name_equal(opt_defs[i].name, key, len))
			return &opt_defs[i];
	return NULL;
}

static const struct opt_def *opt_find_short(char c)
{
	for (size_t i = 0; i < N_OPTS; i++)
		if (opt_defs[i].short_name == c)
			return &opt_defs[i];
	return NULL;
}

static int opt_apply(struct build_opts *o, const struct opt_def *d, const char *value,
		     const char *origin)
{
	int r = d->apply(o, value ? value : "", d->offset);

	if (r == -EINVAL)
		gen_error("%s: bad value '%s' for %s; lifeboat build --help lists the values",
			  origin, value ? value : "", d->name);
	return r;
}

int build_opts_set(struct build_opts *o, const char *key, const char *value, const char *origin)
{
	const struct opt_def *d = opt_find(key, strlen(key));

	if (!d || strcmp(d->name, "config") == 0) {
		gen_error("%s: unknown setting '%s'; lifeboat build --help lists them", origin, key);
		return -EINVAL;
	}
	if (!d->takes_value && value && *value &&
	    strcmp(value, "yes") != 0 && strcmp(value, "1") != 0 && strcmp(value, "true") != 0)
		return 0;   /* "generic = no": leave the default */
	return opt_apply(o, d, value, origin);
}

static int config_setting(const char *key, const char *value, const char *file,
			  unsigned int line, void *ctx)
{
	char origin[4200];

	snprintf(origin, sizeof(origin), "%s:%u", file, line);
	return build_opts_set(ctx, key, value, origin);
}

/* Signing needs both files, and is for unified kernel images only; the
 * image's command line is decided here, before anything is built, since a
 * signed image must not be left without one (gen/uki/uki_cmdline.h). */
static int uki_opts_check(struct build_opts *o)
{
	if (!o->sign_key != !o->sign_cert) {
		gen_error("--sign-key and --sign-cert go together: give both to sign, neither not to");
		return -EINVAL;
	}
	if (!o->uki && (o->sign_key || o->uki_stub || o->kernel_image || o->uki_loader_cmdline)) {
		gen_error("--sign-key, --uki-stub, --kernel-image and --uki-loader-cmdline are for "
			  "unified kernel images: add --uki");
		return -EINVAL;
	}
	if (!o->uki)
		return 0;
	if (o->sign_key && uki_sign_check(o->sign_key) < 0)
		return -EINVAL;
	return uki_cmdline_decide(o->cmdline, uki_cmdline_files, o->sign_key != NULL,
				  o->uki_loader_cmdline, &o->uki_cmdline);
}

/* Find --config before anything else: it decides what is read first. */
static const char *find_config_arg(int argc, char **argv)
{
	const char *config = NULL;

	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--config=", 9) == 0)
			config = argv[i] + 9;
		else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			config = argv[++i];
	}
	return config;
}

static int parse_long(struct build_opts *o, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2;
	const char *eq = strchr(arg, '=');
	const struct opt_def *d = opt_find(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	const char *value = eq ? eq + 1 : NULL;

	if (!d) {
		gen_error("unknown option '%s'; lifeboat build --help lists them", argv[*i]);
		return -EINVAL;
	}
	if (d->takes_value && !value) {
		if (*i + 1 >= argc) {
			gen_error("option --%s needs a value", d->name);
			return -EINVAL;
		}
		value = argv[++*i];
	}
	if (!d->takes_value && value) {
		gen_error("option --%s takes no value", d->name);
		return -EINVAL;
	}
	return opt_apply(o, d, value, "command line");
}

static int parse_short(struct build_opts *o, int argc, char **argv, int *i)
{
	const struct opt_def *d = opt_find_short(argv[*i][1]);
	const char *value = NULL;

	if (!d || argv[*i][2]) {
		gen_error("unknown option '%s'; lifeboat build --help lists them", argv[*i]);
		return -EINVAL;
	}
	if (d->takes_value) {
		if (*i + 1 >= argc) {
			gen_error("option -%c needs a value", d->short_name);
			return -EINVAL;
		}
		value = argv[++*i];
	}
	return opt_apply(o, d, value, "command line");
}

int build_opts_parse(struct build_opts *o, int argc, char **argv)
{
	const char *config = find_config_arg(argc, argv);
	int r = config ? config_parse_file(config, 0, config_setting, o)
		       : config_load_system("", config_setting, o);

	for (int i = 1; r == 0 && i < argc; i++) {
		if (strncmp(argv[i], "--", 2) == 0)
			r = parse_long(o, argc, argv, &i);
		else if (argv[i][0] == '-')
			r = parse_short(o, argc, argv, &i);
		else {
			gen_error("unexpected argument '%s'; lifeboat build --help shows the usage", argv[i]);
			r = -EINVAL;
		}
	}
	if (r == 0 && !o->output) {
		gen_error("no output file: give -o IMAGE");
		r = -EINVAL;
	}
	if (r == 0 && o->kver && strcmp(o->kver, BUILD_KVER_ALL) == 0 && !strstr(o->output, "%k")) {
		gen_error("--kver all writes an image per kernel: -o must say where with %%k, "
			  "e.g. -o /boot/initrd.img-%%k");
		r = -EINVAL;
	}
	return r == 0 ? uki_opts_check(o) : r;
}

/* The default compression as gen/kmod/kernel_rd.c decides it, from its table. */
static void compress_default_print(void)
{
	for (int capture = 0; capture <= 1; capture++) {
		enum sink_format order[SINK_FORMAT_COUNT];
		size_t n = kernel_rd_order(capture, order, SINK_FORMAT_COUNT);

		printf(capture ? "; --kdump: " : " (default: the first the kernel unpacks of ");
		for (size_t i = 0; i < n; i++)
			printf("%s%s", i ? ", " : "", sink_format_name(order[i]));
	}
	putchar(')');
}

void build_opts_usage(void)
{
	printf("usage: lifeboat build -o IMAGE [options]\n\n");
	for (size_t i = 0; i < N_OPTS; i++) {
		char flag[40];

		if (opt_defs[i].short_name)
			snprintf(flag, sizeof(flag), "-%c, --%s", opt_defs[i].short_name, opt_defs[i].name);
		else
			snprintf(flag, sizeof(flag), "    --%s", opt_defs[i].name);
		printf("  %-22s %s", flag, opt_defs[i].help);
		if (opt_defs[i].apply == set_compress)
			compress_default_print();
		putchar('\n');
	}
	printf("\nSettings are read from %s and %s/*.conf (key = value, the option's\n"
	       "long name as key); the command line wins. Exit status: 0 success, 1 the build\n"
	       "failed, 2 usage error.\n", CONFIG_FILE, CONFIG_DIR);
}

void build_opts_init(struct build_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = BUILD_HOST_ONLY;
	o->compress = SINK_GZIP;
}

void build_opts_free(struct build_opts *o)
{
	free(o->output);
	free(o->kver);
	free(o->kmoddir);
	free(o->config);
	free(o->cmdline);
	free(o->firmware_dirs);
	free(o->rescue);
	free(o->rescue_shadow);
	free(o->uki_stub);
	free(o->kernel_image);
	free(o->sign_key);
	free(o->sign_cert);
	free(o->uki_cmdline);
	free(o->ssh_authorized_keys);
	free(o->ssh_host_key);
	free(o->keymap);
	free(o->font);
	free(o->live_ca);
	strv_free(&o->add_modules);
	strv_free(&o->omit_modules);
	strv_free(&o->add_files);
	strv_free(&o->add_binaries);
	strv_free(&o->hooks_dirs);
	strv_free(&o->kdump_targets);
	strv_free(&o->kdump_options);
}
