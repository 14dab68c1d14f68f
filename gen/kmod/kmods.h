/* kmods: choose kernel modules with libkmod at build time and put them, their
 * firmware and the module table (common/modtab.h) into the image.
 *
 * libkmod is used here, on the build host, only: the init reads the compact
 * table the generator writes, so the image needs neither libkmod nor the
 * libcrypto/libzstd/liblzma it pulls in (docs/architecture.md).
 */
#ifndef LIFEBOAT_KMODS_H
#define LIFEBOAT_KMODS_H

#include "gen/host/hostonly.h"
#include "gen/image/image.h"

struct kmods;

/* moddir is the directory holding modules.dep for kver, e.g.
 * /lib/modules/6.1.0-57-amd64 or INSTALL_MOD_PATH/lib/modules/VER. configdir
 * NULL means the host's modprobe.d directories (/etc/modprobe.d,
 * /run/modprobe.d, /usr/lib/modprobe.d, /lib/modprobe.d). */
int kmods_open(struct kmods **out, const char *moddir, const char *kver);
/* The same with the modprobe.d configuration read from configdir only
 * (NULL: the host's directories, as kmods_open). */
int kmods_open_config(struct kmods **out, const char *moddir, const char *kver,
		      const char *configdir);
/* The module directory of kver under root (NULL or "" for the host):
 * ROOT/lib/modules/KVER or ROOT/usr/lib/modules/KVER, whichever holds
 * modules.dep, into buf. -ENOENT (reported) when neither does. */
int kmods_moddir_find(const char *root, const char *kver, char *buf, size_t size);
void kmods_free(struct kmods *k);

/* A module by name or alias, with its dependencies and softdeps; why is shown
 * with -v. A name that matches nothing is an error (reported). A built-in
 * module is fine and adds nothing. */
int kmods_add(struct kmods *k, const char *name, const char *why);
/* The same, but a name this kernel does not have adds nothing, silently
 * (lists that cover many kernels). */
int kmods_add_optional(struct kmods *k, const char *name, const char *why);
/* Each of a feature's n modules, kmods_add's way or (optional)
 * kmods_add_optional's; stops at the first error. */
int kmods_add_list(struct kmods *k, const char *const *names, size_t n, bool optional,
		   const char *why);
/* Every module a modalias resolves to (none is fine). */
int kmods_add_modalias(struct kmods *k, const char *modalias, const char *why);
/* The generic set: every storage, filesystem and virtio driver a boot could
 * need (like initramfs-tools MODULES=most), from the table in gen/kmod/modsets.c. */
int kmods_add_generic(struct kmods *k);
/* Host-only: the drivers of the devices present (from /sys modalias, limited
 * to the kinds in the generic set), the drivers on the root device's sysfs
 * path, the root filesystem's module and its block stack (and the resume
 * device's), as h (gen/host/hostonly.h) found them. */
int kmods_add_host(struct kmods *k, const struct host_scan *h);
/* Never include this module (--omit-modules); also drops it as a dependency. */
int kmods_omit(struct kmods *k, const char *name);

/* Add the chosen modules (decompressed, under /lib/modules/KVER/), the
 * firmware they declare (from fwdirs, a ':'-separated list; NULL for the
 * default /lib/firmware/updates:/lib/firmware) and the module table at
 * MODTAB_PATH. */
int kmods_emit(struct kmods *k, struct image *img, const char *fwdirs);
/* The module table text for the modules chosen so far (what kmods_emit
 * writes at MODTAB_PATH); *text is malloc'd. */
int kmods_table(struct kmods *k, char **text, size_t *len);
/* Number of modules chosen so far. */
size_t kmods_count(const struct kmods *k);

#endif
