/* image: the set of entries that make up an initramfs, and writing it out.
 *
 * Entries are kept by their path inside the image (absolute, e.g.
 * "/usr/lib/x86_64-linux-gnu/libc.so.6"); parent directories are created
 * implicitly. The written archive is reproducible: entries sorted by path,
 * uid/gid 0, one fixed mtime, inode numbers assigned in order, and a host
 * file added under several names (same st_dev/st_ino) written as hard links.
 */
#ifndef LIFEBOAT_IMAGE_H
#define LIFEBOAT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "gen/archive/sink.h"

struct image;

/* What an entry is, for the size report of `lifeboat build -v`. */
enum image_kind {
	IMAGE_KIND_OTHER,
	IMAGE_KIND_MODULE,
	IMAGE_KIND_FIRMWARE,
	IMAGE_KIND_LIBRARY,
	IMAGE_KIND_BINARY,
	IMAGE_KIND_COUNT,
};

struct image *image_new(void);
void image_free(struct image *img);

/* Copy host file src to dst. mode 0 takes the permission bits of src.
 * The file is read when the image is written. */
int image_add_file(struct image *img, const char *src, const char *dst, mode_t mode);
/* A regular file with the given content (copied now). */
int image_add_data(struct image *img, const char *dst, const void *data, size_t len, mode_t mode);
/* image_add_data for an xz stream the init unpacks (bootlib/unxz.h): a
 * module or a program stored xz-compressed. */
int image_add_xz(struct image *img, const char *dst, const void *data, size_t len, mode_t mode);
/* Whether image_add_xz added anything: the image then needs liblzma
 * (gen/feature/unxz_pack.c). */
bool image_has_xz(const struct image *img);
int image_add_dir(struct image *img, const char *dst, mode_t mode);
int image_add_symlink(struct image *img, const char *dst, const char *target);
/* A device node (S_IFCHR or S_IFBLK in mode). */
int image_add_node(struct image *img, const char *dst, mode_t mode, unsigned int major, unsigned int minor);
/* Add host path `path` (absolute) as it resolves on the host: every symlink
 * on the way, whether a directory component (/lib -> usr/lib) or the file
 * itself (libfoo.so.1 -> libfoo.so.1.2.3), is recreated in the image and
 * followed, so the same path resolves the same way inside the image. */
int image_add_host_path(struct image *img, const char *path);
bool image_has(const struct image *img, const char *dst);
/* Total bytes of regular file content so far, for size reports. */
unsigned long long image_content_bytes(const struct image *img);

/* Entries added from now on are of this kind (IMAGE_KIND_OTHER at first). */
void image_set_kind(struct image *img, enum image_kind kind);
/* Bytes of regular file content of each kind, a hard-linked file once. */
void image_kind_bytes(const struct image *img, unsigned long long bytes[IMAGE_KIND_COUNT]);
/* "modules", "firmware", "libraries", "binaries", "other". */
const char *image_kind_name(enum image_kind kind);

/* Write early (the microcode archive) uncompressed in front of img's own
 * archive; early stays the caller's. */
void image_set_early(struct image *img, struct image *early);

/* Write the archive to out_path: to a temporary file in the same directory,
 * fsync'd, mode 0600, then renamed into place. On failure nothing is left at
 * out_path or beside it. mtime is the timestamp of every entry. */
int image_write(struct image *img, const char *out_path, enum sink_format compress, time_t mtime);

#endif
