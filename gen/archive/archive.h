/* archive: read an initramfs file entry by entry.
 *
 * Reads what the kernel reads: concatenated cpio "newc" (070701) or newc-crc
 * (070702) archives, zero padding between them, and compressed members found
 * by their magic bytes (gzip, xz, zstd), each holding cpio archives. So it
 * reads lifeboat's images and other tools' (initramfs-tools, dracut), with an
 * uncompressed early-microcode archive first. It never reads outside the
 * buffer; malformed input is -EINVAL with a reason, and an image that would
 * unpack to more than its budget is -EFBIG.
 */
#ifndef LIFEBOAT_ARCHIVE_H
#define LIFEBOAT_ARCHIVE_H

#include <stddef.h>

#include "gen/archive/cpio.h"

struct archive_entry {
	const char *path;           /* as stored, NUL-terminated: "usr/lib/x" */
	const struct cpio_header *hdr;
	const unsigned char *data;  /* hdr->filesize bytes: content, or a symlink's target */
	size_t size;
	unsigned int member;        /* which cpio archive of the file, from 0 */
};

/* Called per entry (not for the trailer); a negative return stops the walk
 * and is returned by it. */
typedef int (*archive_fn)(const struct archive_entry *e, void *ctx);

/* Why a walk failed: a fixed string and the offset in the (decompressed)
 * data where it was found. */
struct archive_error {
	const char *why;
	unsigned long long offset;
	const char *format;         /* a compressed member's: "gzip", "xz", "zstd"; else NULL */
};

/* What the compressed members of an image of image_len bytes may unpack to,
 * all together: past it the walk stops with -EFBIG at the member that would
 * cross it (err->offset is that member's, in the file). */
size_t archive_unpack_budget(size_t image_len);

/* err may be NULL. Nothing is printed. */
int archive_walk_buffer(const void *buf, size_t len, archive_fn fn, void *ctx,
			struct archive_error *err);
/* Map the file at path and walk it; a missing, unreadable or malformed file
 * is reported (naming the file) and returns -errno. */
int archive_walk_file(const char *path, archive_fn fn, void *ctx);

#endif
