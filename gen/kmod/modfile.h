/* modfile: the files of a kernel module on the build host: the module itself
 * (decompressed from .ko.xz, .ko.zst or .ko.gz) and the firmware it declares. */
#ifndef LIFEBOAT_MODFILE_H
#define LIFEBOAT_MODFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the file at path starts with a compressor's magic bytes. An
 * unreadable file is reported as not compressed; modfile_read says why. */
bool modfile_is_compressed(const char *path);
/* Read the module at path, decompressed when it is xz, zstd or gzip
 * (recognised by magic bytes, not by name). *data is malloc'd. Reports. */
int modfile_read(const char *path, void **data, size_t *len);
/* The image path of a module: its path under moddir, under
 * /lib/modules/KVER/, ending in .ko.xz whatever the host's suffix was (the
 * image stores modules xz-compressed, gen/kmod/modpack.h), or in .ko for
 * one stored plain. Returns a malloc'd string. */
char *modfile_image_path(const char *path, const char *moddir, const char *kver, bool plain);

/* Find firmware `name` in the ':'-separated fwdirs (NULL: /lib/firmware/updates
 * and /lib/firmware), trying DIR/KVER/NAME and DIR/NAME, each also with .xz
 * and .zst appended. On success *found is the malloc'd host path and *suffix
 * the compression suffix found ("" or ".xz" or ".zst"). -ENOENT when absent
 * (not reported: the caller knows which module wanted it). */
int modfile_firmware_find(const char *fwdirs, const char *kver, const char *name,
			  char **found, const char **suffix);

#endif
