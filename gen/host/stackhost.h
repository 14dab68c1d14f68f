/* stackhost: the host's block-stack configuration put into host-only images. */
#ifndef LIFEBOAT_STACKHOST_H
#define LIFEBOAT_STACKHOST_H

#include "common/strv.h"
#include "gen/host/hostonly.h"
#include "gen/image/image.h"

/* Write /etc/crypttab and /etc/mdadm/mdadm.conf for the containers and
 * arrays in h, from the host's /etc/crypttab and /etc/mdadm/mdadm.conf
 * (gen/host/stackconf.c chooses the lines), and LAYOUT_CMDLINE_STACKS;
 * a crypttab line keeps its key file only when add_files (--add-files'
 * SRC[:DST]) puts that path in the image. Returns 0 or -errno (reported). */
int stackhost_add_config(const struct strv *add_files, const struct host_scan *h, struct image *img);
/* The text of the image's /etc/crypttab for the containers in h, as
 * stackhost_add_config writes it, into *text, and the host's key files
 * it leaves out into *left (both malloc'd). Returns 0 or -ENOMEM. */
int stackhost_crypttab_text(const struct strv *add_files, const struct host_scan *h,
			    char **text, char **left);
/* The image's /etc/lvm/lvm.conf: lifeboat's settings, and with host_only
 * the host's devices/filter and devices/global_filter. */
int stackhost_add_lvm_conf(struct image *img, bool host_only);

#endif
