/* kdump_pack: what `lifeboat build --kdump` adds to an image. */
#include "kdump_pack.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kdumpconf.h"
#include "program.h"
#include "report.h"

/* The name the init dlopen()s (kdump/curlfn.c). */
#define KDUMP_LIBCURL "libcurl.so.4"
#define CA_BUNDLE "/etc/ssl/certs/ca-certificates.crt"
#define KDUMP_CA_PATH "/etc/lifeboat/kdump-ca.pem"
#define KDUMP_PINNED_CA "/etc/lifeboat/kdump-pinned-ca.pem"

static bool target_is_url(const char *t)
{
	return strstr(t, "://") != NULL;
}

/* libcurl for the init's dlopen() when it sends a dump to a URL (images
 * without URL targets do not carry it), found as the init's loader would. */
static int add_curl(struct image *img, const char *init)
{
	int r = program_add_dlopen(img, init, KDUMP_LIBCURL);

	if (r == -ENOENT)
		gen_error("--kdump-target with a URL needs %s, which this host lacks: "
			  "install libcurl4", KDUMP_LIBCURL);
	if (r == 0 && access(CA_BUNDLE, R_OK) == 0)
		r = image_add_file(img, CA_BUNDLE, KDUMP_CA_PATH, 0644);
	return r;
}

/* kdump-options: "level=N", "format=kdump[+elf]", "action=A", "failure_action=A",
 * "cafile=FILE" (pinned CA for https, copied in), "netrc=FILE" (credentials
 * for URL targets, copied in with mode 0600). */
static int add_option(struct image *img, const char *opt, char *conf, size_t size)
{
	const char *eq = strchr(opt, '=');
	size_t n = strlen(conf);

	if (!eq || eq == opt) {
		gen_error("--kdump-options %s: expected KEY=VALUE (level=31, format=kdump+elf, "
			  "action=reboot|poweroff|shell, failure_action=..., cafile=FILE, netrc=FILE)", opt);
		return -EINVAL;
	}
	if (strncmp(opt, "cafile=", 7) == 0 || strncmp(opt, "netrc=", 6) == 0) {
		bool ca = opt[0] == 'c';

		if (access(eq + 1, R_OK) < 0) {
			gen_error("--kdump-options %s: cannot read %s: %s", opt, eq + 1, strerror(errno));
			return -errno;
		}
		if (ca)
			snprintf(conf + n, size - n, "cafile " KDUMP_PINNED_CA "\n");
		/* Credentials: readable by root only, whatever the source's mode. */
		return image_add_file(img, eq + 1, ca ? KDUMP_PINNED_CA : KDUMP_NETRC_PATH, ca ? 0644 : 0600);
	}
	snprintf(conf + n, size - n, "%.*s %s\n", (int)(eq - opt), opt, eq + 1);
	for (char *p = conf + n; *p; p++)
		if (*p == '+')
			*p = ' ';
	return 0;
}

int kdump_pack(const struct build_opts *o, struct image *img, const char *init)
{
	char conf[8192] = "# lifeboat kdump capture settings (lifeboat build --kdump)\n";
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
	for (size_t i = 0; i < o->kdump_targets.len; i++) {
		size_t n = strlen(conf);

		snprintf(conf + n, sizeof(conf) - n, "target %s\n", o->kdump_targets.items[i]);
		url |= target_is_url(o->kdump_targets.items[i]);
	}
	for (size_t i = 0; r == 0 && i < o->kdump_options.len; i++)
		r = add_option(img, o->kdump_options.items[i], conf, sizeof(conf));
	if (r < 0)
		return r;
	/* The init reads it with the same parser: refuse here what it would refuse. */
	kdump_conf_init(&check);
	if (kdump_conf_parse(conf, &check, &bad) < 0) {
		gen_error("--kdump-target/--kdump-options: setting %d is not valid (at most %d targets, "
			  "level 0-31, format kdump and/or elf, actions reboot|poweroff|shell)",
			  bad - 1, KDUMP_TARGETS_MAX);
		return -EINVAL;
	}
	if (url)
		r = add_curl(img, init);
	/* URLs may carry credentials: only root may read the settings. */
	return r < 0 ? r : image_add_data(img, KDUMP_CONF_PATH, conf, strlen(conf), 0600);
}
