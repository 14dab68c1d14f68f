/* kdump_pack: what `lifeboat build --kdump` adds to an image. */
#include "gen/feature/kdump_pack.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/kdumpconf.h"
#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"

#define CA_BUNDLE "/etc/ssl/certs/ca-certificates.crt"
/* Where target N's file KEY goes in the image: kdump-target1.cafile. */
#define KDUMP_TARGET_FILE "/etc/lifeboat/kdump-target%zu.%s"

static bool target_is_url(const char *t)
{
	return strstr(t, "://") != NULL;
}

/* libcurl for the init's dlopen() (bootlib/curlfn.c) when it sends a dump
 * to a URL (images without URL targets do not carry it), found as the
 * init's loader would. */
static int add_curl(struct image *img, const char *init)
{
	int r = program_add_dlopen(img, init, LAYOUT_LIBCURL);

	if (r == -ENOENT)
		gen_error("--kdump-target with a URL needs %s, which this host lacks: "
			  "install libcurl4", LAYOUT_LIBCURL);
	if (r == 0 && access(CA_BUNDLE, R_OK) == 0)
		r = image_add_file(img, CA_BUNDLE, LAYOUT_KDUMP_CA, 0644);
	return r;
}

/* liblzo2 for the init's dlopen() when the pages are LZO (images with
 * zlib pages do not carry it). Without it on the host, LZO by default
 * becomes zlib (the capture falls back to it, with a warning); asked for
 * by name, it is an error. */
static int add_lzo(struct image *img, const char *init, bool asked)
{
	int r = program_add_dlopen(img, init, KDUMP_LIBLZO);

	if (r == -ENOENT && asked)
		gen_error("--kdump-options compress=lzo needs %s, which this host lacks: "
			  "install liblzo2-2", KDUMP_LIBLZO);
	else if (r == -ENOENT) {
		gen_warn("this host lacks %s: the capture will compress its pages with zlib "
			 "(install liblzo2-2 for LZO, the default, or say compress=zlib)", KDUMP_LIBLZO);
		r = 0;
	}
	return r;
}

/* libzstd for zstd pages, as liblzo2 for LZO; asked for by name only
 * (zstd is never the default), so a host without it is an error. */
static int add_zstd(struct image *img, const char *init)
{
	int r = program_add_dlopen(img, init, KDUMP_LIBZSTD);

	if (r == -ENOENT)
		gen_error("--kdump-options compress=zstd needs %s, which this host lacks: "
			  "install libzstd1", KDUMP_LIBZSTD);
	return r;
}

/* A host file the image carries for capture: say which option named it if
 * it cannot be read now, rather than when the image is written. */
static int add_host_file(struct image *img, const char *what, const char *src, const char *dst, mode_t mode)
{
	if (access(src, R_OK) < 0) {
		int r = -errno;

		gen_error("%s: cannot read %s: %s", what, src, strerror(-r));
		return r;
	}
	return image_add_file(img, src, dst, mode);
}

/* What the options and the targets add to: the text of kdump.conf and the
 * CA every https target without its own pins (--kdump-options cafile=). */
struct pack {
	struct image *img;
	char conf[KDUMP_CONF_MAX];
	const char *cafile;
	bool cafile_used;
};

/* One "key value" line; -E2BIG if the init could not read it all. */
static int conf_append(struct pack *p, const char *key, const char *value)
{
	size_t n = strlen(p->conf);

	if ((size_t)snprintf(p->conf + n, sizeof(p->conf) - n, "%s %s\n", key, value) >= sizeof(p->conf) - n) {
		gen_error("--kdump-target/--kdump-options: the settings exceed the %zu bytes the "
			  "capture reads; use fewer or shorter targets", sizeof(p->conf) - 1);
		return -E2BIG;
	}
	return 0;
}

/* kdump-options: "level=N", "format=kdump[+elf]", "compress=zlib|lzo|zstd",
 * "action=A", "failure_action=A",
 * "cafile=FILE" (the CA pinned for https targets that do not pin their own),
 * "netrc=FILE" (credentials for URL targets, copied in with mode 0600). */
static int add_option(struct pack *p, const char *opt)
{
	const char *eq = strchr(opt, '=');
	char key[32], value[128];

	if (!eq || eq == opt || (size_t)(eq - opt) >= sizeof(key)) {
		gen_error("--kdump-options %s: expected KEY=VALUE (level=31, format=kdump+elf, "
			  "compress=zlib|lzo|zstd, action=reboot|poweroff|shell, failure_action=..., cafile=FILE, netrc=FILE)", opt);
		return -EINVAL;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - opt), opt);
	if (strcmp(key, "cafile") == 0) {
		p->cafile = eq + 1;
		return 0;
	}
	/* Credentials: readable by root only, whatever the source's mode. */
	if (strcmp(key, "netrc") == 0)
		return add_host_file(p->img, "--kdump-options netrc=", eq + 1, KDUMP_NETRC_PATH, 0600);
	/* format=kdump+elf: the file lists formats with spaces. */
	snprintf(value, sizeof(value), "%s", eq + 1);
	for (char *c = value; *c; c++)
		if (*c == '+')
			*c = ' ';
	return conf_append(p, key, value);
}

/* Each file a target names is copied in under a name of its own, private
 * keys readable by root only; kdump.conf gets the copies' paths. */
static int add_target_files(struct pack *p, struct kdump_target *t, size_t index, const char *arg)
{
	char dst[KDUMP_FILE_MAX], what[KDUMP_SPEC_MAX + 32];

	snprintf(what, sizeof(what), "--kdump-target %s", arg);
	for (int f = 0; f < TARGET_FILES; f++) {
		char *file = kdump_target_file(t, (enum kdump_target_file)f);
		const char *key = kdump_target_file_key((enum kdump_target_file)f);
		int r;

		if (!file[0])
			continue;
		snprintf(dst, sizeof(dst), KDUMP_TARGET_FILE, index + 1, key);
		r = add_host_file(p->img, what, file, dst, f == TARGET_SSHKEY ? 0600 : 0644);
		if (r < 0)
			return r;
		snprintf(file, KDUMP_FILE_MAX, "%s", dst);
	}
	return 0;
}

static int add_target(struct pack *p, const char *arg, size_t index)
{
	struct kdump_target t;
	char line[KDUMP_SPEC_MAX + TARGET_FILES * (KDUMP_FILE_MAX + 16)];
	const char *why;
	int r;

	if (kdump_target_parse(arg, &t, &why) < 0) {
		gen_error("--kdump-target %s: %s", arg, why);
		return -EINVAL;
	}
	if (p->cafile && kdump_target_is(t.where, "https") && !t.cafile[0]) {
		snprintf(t.cafile, sizeof(t.cafile), "%s", p->cafile);
		p->cafile_used = true;
	}
	r = add_target_files(p, &t, index, arg);
	if (r == 0 && kdump_target_format(&t, line, sizeof(line)) < 0) {
		gen_error("--kdump-target %s: too long for the image's settings", arg);
		r = -ENAMETOOLONG;
	}
	return r < 0 ? r : conf_append(p, "target", line);
}

int kdump_pack(const struct build_opts *o, struct image *img, const char *init)
{
	static struct pack p;
	struct kdump_conf check;
	bool url = false;
	int r = 0, bad = 0;

	if (!o->kdump)
		return 0;
	if (o->kdump_targets.len == 0) {
		gen_error("--kdump needs at least one --kdump-target (UUID=...:/var/crash, "
			  "LABEL=..., /dev/..., or http://HOST/PATH/)");
		return -EINVAL;
	}
	p.img = img;
	p.cafile = NULL;
	p.cafile_used = false;
	snprintf(p.conf, sizeof(p.conf), "# lifeboat kdump capture settings (lifeboat build --kdump)\n");
	for (size_t i = 0; r == 0 && i < o->kdump_options.len; i++)
		r = add_option(&p, o->kdump_options.items[i]);
	for (size_t i = 0; r == 0 && i < o->kdump_targets.len; i++) {
		r = add_target(&p, o->kdump_targets.items[i], i);
		url |= target_is_url(o->kdump_targets.items[i]);
	}
	if (r == 0 && p.cafile && !p.cafile_used) {
		gen_error("--kdump-options cafile=%s: no https:// target without its own cafile= "
			  "would use it", p.cafile);
		r = -EINVAL;
	}
	if (r < 0)
		return r;
	/* The init reads it with the same parser: refuse here what it would refuse. */
	kdump_conf_init(&check);
	if (kdump_conf_parse(p.conf, &check, &bad) < 0) {
		gen_error("--kdump-target/--kdump-options: setting %d is not valid (at most %d targets, "
			  "level 0-31, format kdump and/or elf, compress zlib, lzo or zstd, actions "
			  "reboot|poweroff|shell)",
			  bad - 1, KDUMP_TARGETS_MAX);
		return -EINVAL;
	}
	if (url)
		r = add_curl(img, init);
	if (r == 0 && check.compress == COMPRESS_LZO)
		r = add_lzo(img, init, strstr(p.conf, "\ncompress ") != NULL);
	if (r == 0 && check.compress == COMPRESS_ZSTD)
		r = add_zstd(img, init);
	/* URLs may carry credentials: only root may read the settings. */
	return r < 0 ? r : image_add_data(img, KDUMP_CONF_PATH, p.conf, strlen(p.conf), 0600);
}

static bool kdump_pack_wanted(const struct build_ctx *c)
{
	return c->opts->kdump;
}

static int kdump_pack_add_files(struct build_ctx *c)
{
	return kdump_pack(c->opts, c->img, c->init);
}

const struct feature kdump_pack_feature = {
	.name = "kdump",
	.wanted = kdump_pack_wanted,
	.add_files = kdump_pack_add_files,
};
