/* build: assemble an image from the build options. */
#include "gen/cmd/build.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/layout.h"
#include "gen/addfile.h"
#include "gen/opts/build_ctx.h"
#include "gen/cmd/build_all.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/feature/iscsi_pack.h"
#include "gen/feature/rescue_pack.h"
#include "gen/gen_report.h"
#include "gen/host/hooktmp.h"
#include "gen/host/hostfacts.h"
#include "gen/host/kdumphost.h"
#include "gen/host/tanghost.h"
#include "gen/kmod/kernel.h"
#include "gen/kmod/kernel_rd.h"
#include "gen/kmod/kmods.h"
#include "gen/uki/uki_build.h"

/* The skeleton every image has: mount points the init uses, and a console
 * node so the kernel can give PID 1 its stdio before devtmpfs is mounted. */
static const char *const skeleton_dirs[] = {
	"/dev", "/proc", "/sys", "/run", "/sysroot", "/etc", "/tmp", "/root",
};

static int add_skeleton(struct image *img)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(skeleton_dirs) / sizeof(skeleton_dirs[0]); i++)
		r = image_add_dir(img, skeleton_dirs[i], 0755);
	if (r == 0)
		r = image_add_node(img, "/dev/console", S_IFCHR | 0600, 5, 1);
	return r;
}

/* Whether the root's containers are bound to Tang: lifeboat-clevis, the
 * program the image would carry, reads their tokens. Without it (not
 * built) nothing is detected; --clevis still works. */
static void host_tang_detect(struct host_facts *host)
{
	char clevis[PATH_MAX];

	if (host->stack.n_luks && program_find_own_quiet("lifeboat-clevis", clevis, sizeof(clevis)) == 0)
		tanghost_detect(host, clevis);
}

/* The modules each wanted feature of the table needs. */
static int features_add_modules(const struct build_ctx *c, struct kmods *k)
{
	int r = 0;

	for (const struct feature *const *f = feature_table; r == 0 && *f; f++)
		if ((*f)->add_modules && (*f)->wanted(c))
			r = (*f)->add_modules(c, k);
	return r;
}

/* The files of each wanted feature of the table. */
static int features_add_files(struct build_ctx *c)
{
	int r = 0;

	for (const struct feature *const *f = feature_table; r == 0 && *f; f++)
		if ((*f)->add_files && (*f)->wanted(c))
			r = (*f)->add_files(c);
	return r;
}

static int add_modules(const struct build_ctx *c, const char *kver, const char *moddir,
		       size_t *count)
{
	const struct build_opts *o = c->opts;
	struct kmods *k;
	int r = kmods_open(&k, moddir, kver);

	if (r < 0)
		return r;
	for (size_t i = 0; r == 0 && i < o->omit_modules.len; i++)
		r = kmods_omit(k, o->omit_modules.items[i]);
	if (r == 0)
		r = c->host ? kmods_add_host(k, &c->host->stack) : kmods_add_generic(k);
	if (r == 0)
		r = features_add_modules(c, k);
	for (size_t i = 0; r == 0 && i < o->add_modules.len; i++)
		r = kmods_add(k, o->add_modules.items[i], "--add-modules");
	if (r == 0)
		r = kmods_emit(k, c->img, o->firmware_dirs);
	*count = kmods_count(k);
	kmods_free(k);
	return r;
}

/* --add-files SRC[:DST]: DST defaults to SRC. */
static int add_files(const struct build_opts *o, struct image *img)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < o->add_files.len; i++) {
		const char *item = o->add_files.items[i], *dst = addfile_dst(item);
		char src[PATH_MAX];

		if (addfile_src(item, src, sizeof(src)) < 0) {
			gen_error("--add-files %s: the path is too long", item);
			return -ENAMETOOLONG;
		}
		if (access(src, R_OK) < 0) {
			gen_error("--add-files %s: cannot read %s: %s", item, src, strerror(errno));
			return -errno;
		}
		r = dst != item ? image_add_file(img, src, dst, 0) : image_add_host_path(img, src);
	}
	return r;
}

static int add_binaries(const struct build_opts *o, struct image *img)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < o->add_binaries.len; i++) {
		const char *path = o->add_binaries.items[i];

		if (access(path, R_OK) < 0) {
			gen_error("--add-binaries %s: cannot read it: %s; give the full path",
				  path, strerror(errno));
			return -errno;
		}
		r = program_add(img, path, NULL);
	}
	return r;
}

static void append_list(char *buf, size_t size, const char *key, const struct strv *v)
{
	size_t n = strlen(buf);

	if (v->len == 0)
		return;
	n += (size_t)snprintf(buf + n, size - n, "%s =", key);
	for (size_t i = 0; i < v->len && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, " %s", v->items[i]);
	if (n < size)
		snprintf(buf + n, size - n, "\n");
}

/* What the image was built with, for `lifeboat ls` and the init's report. */
static int add_build_conf(const struct build_ctx *c, const char *kver, size_t n_modules)
{
	const struct build_opts *o = c->opts;
	char buf[8192];

	snprintf(buf, sizeof(buf),
		 "# lifeboat build settings of this image\nkver = %s\nmode = %s\n"
		 "compress = %s\nmodules = %zu\n", kver,
		 o->mode == BUILD_GENERIC ? "generic" : "host-only",
		 sink_format_name(o->compress), n_modules);
	append_list(buf, sizeof(buf), "add_modules", &o->add_modules);
	append_list(buf, sizeof(buf), "omit_modules", &o->omit_modules);
	append_list(buf, sizeof(buf), "add_files", &o->add_files);
	append_list(buf, sizeof(buf), "add_binaries", &o->add_binaries);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "rescue = %s%s\n",
		 rescue_pack_busybox(o) ? rescue_pack_busybox(o) : "none",
		 o->rescue_auth ? " (root password)" : "");
	if (c->ssh_host_key[0])
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "ssh = port %u, host key %s\n",
			 o->ssh_port ? o->ssh_port : LAYOUT_SSH_DEFAULT_PORT, c->ssh_host_key);
	if (o->cmdline) {
		size_t n = strlen(buf);
		char shown[4096];

		iscsi_pack_redact(o->cmdline, shown, sizeof(shown));
		snprintf(buf + n, sizeof(buf) - n, "cmdline = %s\n%s", shown,
			 iscsi_pack_has_secrets(o->cmdline) ? "secrets = iSCSI CHAP credentials in "
			 LAYOUT_CMDLINE_USER "\n" : "");
	}
	return image_add_data(c->img, LAYOUT_BUILD_CONF, buf, strlen(buf), 0644);
}

/* A generic image's init defers the drivers of controllers that seldom
 * hold a root (bootlib/coldplug.h); a host-only image carries only the
 * drivers its root needs, so it loads them at once. */
static int add_generic_mark(const struct build_opts *o, struct image *img)
{
	return o->mode == BUILD_GENERIC ? image_add_data(img, LAYOUT_GENERIC, "", 0, 0644) : 0;
}

/* A host-only image knows its root's filesystem before the device is
 * found: the init loads the module meanwhile (init/boot.c). */
static int add_root_fstype(const struct build_ctx *c)
{
	char line[64];

	if (!c->host || !c->host->stack.root_seen || !c->host->stack.root_fstype)
		return 0;
	snprintf(line, sizeof(line), "%s\n", c->host->stack.root_fstype);
	return image_add_data(c->img, LAYOUT_ROOT_FSTYPE, line, strlen(line), 0644);
}

/* SOURCE_DATE_EPOCH (reproducible-builds.org) or 0. */
static time_t image_time(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (!s || !*s)
		return 0;
	v = strtoll(s, &end, 10);
	if (*end || v < 0) {
		gen_warn("SOURCE_DATE_EPOCH=%s is not a number of seconds; using 0", s);
		return 0;
	}
	return (time_t)v;
}

/* --cmdline: kernel parameters the init reads before /proc/cmdline's. */
static int add_cmdline(const struct build_opts *o, struct image *img)
{
	char line[4096];

	/* A unified kernel image carries it as the kernel's own command line. */
	if (!o->cmdline || o->uki)
		return 0;
	snprintf(line, sizeof(line), "%s\n", o->cmdline);
	/* CHAP secrets: readable by root only, also once unpacked. */
	return image_add_data(img, LAYOUT_CMDLINE_USER, line, strlen(line),
			      iscsi_pack_has_secrets(o->cmdline) ? 0600 : 0644);
}

/* The image's core (skeleton, /init, modules, what the user named), then
 * each wanted feature of the table, then what was built with. */
static int assemble(struct build_ctx *c, const char *kver, const char *moddir)
{
	char init[PATH_MAX];
	size_t n_modules = 0;
	int r;

	r = add_skeleton(c->img);
	if (r == 0)
		r = program_find_own("lifeboat-init", init, sizeof(init));
	c->init = init;
	if (r == 0)
		r = program_add(c->img, init, "/init");
	if (r == 0)
		r = add_modules(c, kver, moddir, &n_modules);
	if (r == 0)
		r = add_binaries(c->opts, c->img);
	if (r == 0)
		r = features_add_files(c);
	if (r == 0)
		r = add_files(c->opts, c->img);
	if (r == 0)
		r = add_cmdline(c->opts, c->img);
	if (r == 0)
		r = add_generic_mark(c->opts, c->img);
	if (r == 0)
		r = add_root_fstype(c);
	if (r == 0)
		r = add_build_conf(c, kver, n_modules);
	c->init = NULL;
	return r;
}

/* -v: where the bytes went, so a user sees what to omit to make it smaller. */
static void sizes_report(const struct image *img, const char *output, const char *kver)
{
	unsigned long long bytes[IMAGE_KIND_COUNT];

	image_kind_bytes(img, bytes);
	gen_info("wrote %s for kernel %s (%llu bytes of content)", output, kver,
		 image_content_bytes(img));
	for (int k = 0; k < IMAGE_KIND_COUNT; k++)
		gen_info("  %-10s %10llu bytes", image_kind_name((enum image_kind)k), bytes[k]);
}

/* --uki: the initramfs goes to a temporary file first, then into the
 * unified kernel image with the kernel (gen/uki/uki_build.h). */
static int write_output(const struct build_opts *o, struct image *img, const char *kver)
{
	char initrd[4096], kernel[4096];
	struct uki_inputs in = { .stub = o->uki_stub, .kernel = o->kernel_image, .initrd = initrd,
				 .cmdline = o->uki_cmdline, .sign_key = o->sign_key, .sign_cert = o->sign_cert };
	int r;

	if (!o->uki)
		return image_write(img, o->output, o->compress, image_time());
	snprintf(initrd, sizeof(initrd), "%s.initrd.%d", o->output, (int)getpid());
	snprintf(kernel, sizeof(kernel), "/boot/vmlinuz-%s", kver);
	if (!in.kernel)
		in.kernel = kernel;
	r = image_write(img, initrd, o->compress, image_time());
	if (r == 0)
		r = uki_build(&in, o->output);
	unlink(initrd);
	return r;
}

static int build_with_host(const struct build_opts *o, const struct host_facts *host,
			   const char *kver, const char *moddir)
{
	struct hookreq_list hooks = { 0 };
	char hooks_tmp[PATH_MAX] = "";
	struct build_ctx c = { .opts = o, .host = host, .kver = kver, .moddir = moddir,
			       .hooks = &hooks, .hooks_tmp = hooks_tmp };
	int r;

	c.img = image_new();
	if (!c.img)
		return -ENOMEM;
	r = assemble(&c, kver, moddir);
	if (c.early)
		image_set_early(c.img, c.early);
	if (r == 0)
		r = write_output(o, c.img, kver);
	if (r == 0)
		sizes_report(c.img, o->output, kver);
	image_free(c.img);
	image_free(c.early);
	hookreq_list_free(&hooks);
	hooktmp_remove(hooks_tmp);
	return r;
}

int build_kernel(const struct build_opts *o, const struct host_facts *host)
{
	char kver[256], moddir[PATH_MAX];
	struct build_opts decided = *o;  /* o, with the compression decided for the kernel */
	int r;

	r = kernel_find(o->kver, o->kmoddir, kver, sizeof(kver), moddir, sizeof(moddir));
	if (r == 0 && o->compress_given)
		r = kernel_rd_check(o->compress, kver, moddir, "/boot");
	else if (r == 0)
		decided.compress = kernel_rd_default(kver, moddir, "/boot", o->kdump);
	if (r < 0)
		return r;
	if (o->kdump && o->compress == SINK_LZ4)
		gen_warn("--compress lz4: the capture kernel's unpack needs 16 MiB more memory than "
			 "with gzip; raise crashkernel= if the capture runs out of memory");
	o = &decided;
	gen_info("compressing the image with %s%s", sink_format_name(o->compress),
		 o->compress_given ? "" : " (the default for this kernel)");
	return build_with_host(o, o->mode == BUILD_GENERIC ? NULL : host, kver, moddir);
}

int build_image(const struct build_opts *o)
{
	struct host_facts host;
	int r;

	gen_verbose = o->verbose;
	if (o->mode == BUILD_GENERIC)
		return o->kver && strcmp(o->kver, BUILD_KVER_ALL) == 0 ? build_all(o, NULL)
								      : build_kernel(o, NULL);
	/* The host is read once; every step of a host-only build decides from
	 * it, for every kernel of --kver all too. */
	r = hostfacts_read(&host, "");
	if (r < 0)
		return r;
	/* A capture image opens its dump disks' stacks as the root's. */
	if (o->kdump && (r = kdumphost_scan(&host, "", &o->kdump_targets)) < 0) {
		hostfacts_free(&host);
		return r;
	}
	host_tang_detect(&host);
	r = o->kver && strcmp(o->kver, BUILD_KVER_ALL) == 0 ? build_all(o, &host) : build_kernel(o, &host);
	hostfacts_free(&host);
	return r;
}

int build_main(int argc, char **argv)
{
	struct build_opts o;
	int r;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			build_opts_usage();
			return 0;
		}
	build_opts_init(&o);
	r = build_opts_parse(&o, argc, argv);
	if (r < 0) {
		build_opts_free(&o);
		return 2;
	}
	r = build_image(&o);
	build_opts_free(&o);
	return r < 0 ? 1 : 0;
}
