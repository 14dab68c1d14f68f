/* kernel_rd: check the image's compression against the kernel's config. */
#include "gen/kmod/kernel_rd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen_report.h"

int kernel_config_find(const char *kver, const char *moddir, const char *bootdir,
		       char *out, size_t size)
{
	/* The module tree's own first: with --kmoddir the kernel is not the
	 * host's, and /boot may hold another build of the same version. */
	const char *const forms[] = { "%s/config", "%s/build/.config" };

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(out, size, forms[i], moddir);
		if (access(out, R_OK) == 0)
			return 0;
	}
	snprintf(out, size, "%s/config-%s", bootdir, kver);
	return access(out, R_OK) == 0 ? 0 : -ENOENT;
}

int kernel_config_is_y(const char *config, const char *option)
{
	FILE *f = fopen(config, "re");
	size_t n = strlen(option);
	char line[512];
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, option, n) == 0 && strcmp(line + n, "=y\n") == 0;
	fclose(f);
	return found;
}

/* The formats this kernel can unpack, for the message: "gzip, xz, none". */
static void formats_list(const char *config, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < SINK_FORMAT_COUNT; i++) {
		const char *opt = sink_format_kconfig((enum sink_format)i);

		if ((!opt || kernel_config_is_y(config, opt) == 1) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						sink_format_name((enum sink_format)i));
	}
}

/* lz4 first: the modules are xz each already, so what the kernel unpacks
 * is mostly copied, and lz4 decodes the rest fastest. On the benchmark's VM
 * (qemu, Debian 12's 6.1 kernel) the kernel reached "Run /init" 0.14 s
 * sooner than with gzip and 0.13 s sooner than with zstd, for an image 4%
 * larger than gzip's (docs/benchmarks.md, "Compression"). A kernel without
 * lz4 gets the next it has; xz never (3 to 7 s to unpack there), none last.
 * With no config to read, gzip: every distribution kernel has it. */
/* A capture kernel (the second row) lives in its crashkernel= reservation
 * (128 MB in the kdump tests), where the kernel's unlz4 and its two 8 MiB
 * chunk buffers ran it out of memory while unpacking; gzip's decoder needs
 * 32 KiB. */
static const enum sink_format preferred[2][4] = {
	{ SINK_LZ4, SINK_GZIP, SINK_ZSTD, SINK_NONE },
	{ SINK_GZIP, SINK_ZSTD, SINK_LZ4, SINK_NONE },
};

#define ORDER_LEN (sizeof(preferred[0]) / sizeof(preferred[0][0]))

size_t kernel_rd_order(bool capture, enum sink_format *order, size_t size)
{
	size_t n = ORDER_LEN < size ? ORDER_LEN : size;

	memcpy(order, preferred[capture], n * sizeof(*order));
	return n;
}

enum sink_format kernel_rd_default(const char *kver, const char *moddir, const char *bootdir,
				   bool capture)
{
	const enum sink_format *order = preferred[capture];
	char config[4096];

	if (kernel_config_find(kver, moddir, bootdir, config, sizeof(config)) < 0)
		return SINK_GZIP;
	for (size_t i = 0; i < ORDER_LEN; i++) {
		const char *opt = sink_format_kconfig(order[i]);

		if (!opt || kernel_config_is_y(config, opt) == 1)
			return order[i];
	}
	return SINK_NONE;
}

int kernel_rd_check(enum sink_format f, const char *kver, const char *moddir,
		    const char *bootdir)
{
	const char *opt = sink_format_kconfig(f);
	char config[4096], usable[128];
	int r;

	if (!opt)
		return 0;
	if (kernel_config_find(kver, moddir, bootdir, config, sizeof(config)) < 0) {
		if (f != SINK_GZIP)
			gen_warn("cannot check that kernel %s unpacks %s images: no config-%s in %s "
				 "and none in %s; if it was built without %s it will not boot this image",
				 kver, sink_format_name(f), kver, bootdir, moddir, opt);
		return 0;
	}
	r = kernel_config_is_y(config, opt);
	if (r < 0) {
		gen_error("cannot read kernel config %s: %s", config, strerror(-r));
		return r;
	}
	if (r == 1)
		return 0;
	formats_list(config, usable, sizeof(usable));
	gen_error("kernel %s cannot unpack a %s-compressed image: %s does not set %s=y; "
		  "choose one it can with --compress (%s)", kver, sink_format_name(f), config, opt,
		  usable);
	return -ENOTSUP;
}
