/* stackhost: read the host's crypttab, mdadm.conf and lvm.conf, and the array UUIDs. */
#include "gen/host/stackhost.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/fileread.h"
#include "common/layout.h"
#include "gen/addfile.h"
#include "gen/gen_report.h"
#include "gen/host/lvmfilter.h"
#include "gen/host/stackconf.h"

#define HOST_CONF_MAX (1024 * 1024)

/* A host file's text, or NULL when it is missing or unreadable. */
static char *host_text(const char *path)
{
	char *text = NULL;
	size_t len;

	return file_read_all(path, HOST_CONF_MAX, &text, &len) == 0 ? text : NULL;
}

/* The block device a crypttab source (PARTUUID=, LABEL=, /dev/disk/by-id/...) is now. */
static bool resolve_source(const char *source, char *dev, size_t size)
{
	char *path = strchr(source, '=') ? blkid_evaluate_tag(source, NULL, NULL) : NULL;
	char real[PATH_MAX];
	bool ok;

	ok = realpath(path ? path : source, real) != NULL && strncmp(real, "/dev/", 5) == 0;
	if (ok)
		snprintf(dev, size, "%s", real + 5);
	free(path);
	return ok;
}

/* Where the --add-files entries (SRC[:DST]) land in the image. */
static int added_paths(const struct strv *add_files, struct strv *out)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < add_files->len; i++)
		r = strv_push(out, addfile_dst(add_files->items[i]));
	return r;
}

static void report_left_out(const char *left)
{
	while (*left) {
		size_t len = strcspn(left, "\n");

		gen_warn("host-only: the key file %.*s of the host's /etc/crypttab is not put in "
			 "the image (whoever reads the image could read it), so the passphrase is "
			 "asked; to open the container with it, add it with --add-files %.*s",
			 (int)len, left, (int)len, left);
		left += len + (left[len] == '\n');
	}
}

static void crypttab_note(void *ctx, const char *name, const struct luks_opts *o)
{
	(void)ctx;
	if (o->flags & LUKS_OPT_HEADER)
		gen_error("host-only: the container %s has a detached LUKS header (header= in the "
			  "host's /etc/crypttab); lifeboat finds containers by the header on their "
			  "device, so its image could not open it: no image is written", name);
	else
		gen_warn("host-only: /etc/crypttab's options for %s: %s", name, o->notes);
}

int stackhost_crypttab_text(const struct strv *add_files, const struct host_scan *h,
			    char **text, char **left)
{
	struct strv added = STRV_INIT;
	char *host = host_text("/etc/crypttab");
	int r = added_paths(add_files, &added);

	*text = *left = NULL;
	if (r == 0)
		r = stackconf_crypttab(h, host, resolve_source, &added, text, left);
	strv_free(&added);
	free(host);
	return r;
}

static int add_crypttab(const struct strv *add_files, const struct host_scan *h, struct image *img)
{
	char *text = NULL, *left = NULL;
	int r = stackhost_crypttab_text(add_files, h, &text, &left);

	if (r == 0)
		r = stackconf_crypttab_check(text, crypttab_note, NULL);
	if (r == 0 && text[0])
		r = image_add_data(img, LAYOUT_CRYPTTAB, text, strlen(text), 0644);
	if (r == 0) {
		report_left_out(left);
		if (gen_verbose && text[0])
			gen_info("host-only: /etc/crypttab of the image:\n%s", text);
	}
	free(text);
	free(left);
	return r;
}

/* The array UUID of each of h's arrays, as libblkid reads it on a member
 * (NULL when it cannot: that array gets no mdadm.conf line nor rd.md.uuid=). */
static void md_uuids_read(const struct host_scan *h, char *uuids[])
{
	for (size_t i = 0; i < h->n_md; i++) {
		char dev[300];

		snprintf(dev, sizeof(dev), "/dev/%s", h->md[i].member);
		uuids[i] = h->md[i].member[0] ? blkid_get_tag_value(NULL, "UUID", dev) : NULL;
		if (!uuids[i])
			gen_warn("host-only: libblkid reads no array UUID on %s (a member of /dev/%s); "
				 "the image has no mdadm.conf line or rd.md.uuid= for that array",
				 dev, h->md[i].dev);
	}
}

static int add_mdadm_conf(const struct host_scan *h, const char *const uuids[], struct image *img)
{
	char *host = host_text("/etc/mdadm/mdadm.conf"), *text = NULL;
	int r;

	if (!host)
		host = host_text("/etc/mdadm.conf");
	r = stackconf_mdadm(h, host, uuids, &text);
	if (r == 0)
		r = image_add_data(img, "/etc/mdadm/mdadm.conf", text, strlen(text), 0644);
	free(host);
	free(text);
	return r;
}

static int add_stack_cmdline(const struct host_scan *h, const char *const uuids[], struct image *img)
{
	char *text = NULL;
	int r = stackconf_cmdline(h, uuids, &text);

	if (r == 0 && text[0]) {
		r = image_add_data(img, LAYOUT_CMDLINE_STACKS, text, strlen(text), 0644);
		gen_info("host-only: only the root's and the resume device's stack is assembled (%s: "
			 "%.*s); rd.luks.uuid=, rd.md.uuid=, rd.lvm.vg= on the command line add more",
			 LAYOUT_CMDLINE_STACKS, (int)strcspn(text, "\n"), text);
	}
	free(text);
	return r;
}

int stackhost_add_config(const struct strv *add_files, const struct host_scan *h, struct image *img)
{
	char *uuids[HOST_STACK_MAX] = { NULL };
	int r = h->n_luks ? add_crypttab(add_files, h, img) : 0;

	md_uuids_read(h, uuids);
	if (r == 0 && h->n_md)
		r = add_mdadm_conf(h, (const char *const *)uuids, img);
	if (r == 0)
		r = add_stack_cmdline(h, (const char *const *)uuids, img);
	/* A refused crypttab line was reported where it was found. */
	if (r < 0 && r != -ENOTSUP)
		gen_error("host-only: writing the block-stack configuration failed: %s", strerror(-r));
	for (size_t i = 0; i < h->n_md; i++)
		free(uuids[i]);
	return r;
}

/* Without udev in the image, libdevmapper makes the /dev/mapper nodes
 * itself; no metadata backups (the root may not even be writable yet), and
 * no dmeventd to monitor. */
int stackhost_add_lvm_conf(struct image *img, bool host_only)
{
	char filters[8192] = "", conf[9216];
	char *host = host_only ? host_text("/etc/lvm/lvm.conf") : NULL;

	if (host && lvmfilter_extract(host, filters, sizeof(filters)) < 0)
		gen_warn("host-only: the device filters of /etc/lvm/lvm.conf are longer than %zu "
			 "bytes and are left out of the image's lvm.conf", sizeof(filters));
	free(host);
	snprintf(conf, sizeof(conf),
		 "# lvm.conf of the lifeboat initramfs%s\n"
		 "activation {\n\tudev_sync = 0\n\tudev_rules = 0\n\tmonitoring = 0\n}\n"
		 "devices {\n\tobtain_device_list_from_udev = 0\n%s}\n"
		 "backup {\n\tbackup = 0\n\tarchive = 0\n}\n"
		 "global {\n\tuse_lvmpolld = 0\n}\n",
		 filters[0] ? " (device filters from the host's /etc/lvm/lvm.conf)" : "", filters);
	return image_add_data(img, "/etc/lvm/lvm.conf", conf, strlen(conf), 0644);
}
