/* key_read: the bytes of a LUKS key file, from the image or from a key device. */
#ifndef LIFEBOAT_BLOCKSTACK_KEY_READ_H
#define LIFEBOAT_BLOCKSTACK_KEY_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/luksopts.h"

/* Keys are fed to cryptsetup through a pipe, which holds this much
 * without blocking (LUKS key files are usually 512 to 4096 bytes). */
#define KEY_BYTES_MAX LUKS_OPTS_KEYFILE_SIZE_MAX
/* Where a key device is mounted while its key file is read. */
#define KEYDEV_MOUNT "/run/lifeboat/keydev"

/* Which bytes of a key file: crypttab's keyfile-offset= and keyfile-size=. */
struct key_request {
	const char *path;
	uint64_t offset;     /* bytes skipped */
	size_t limit;        /* bytes read; 0: to the end of the file */
	const char *within;  /* the file must be on this directory's filesystem; NULL: anywhere */
};

/* Read the key req names into buf (size bytes at most), setting *len.
 * Only a regular file is opened: a FIFO, device or directory (a hostile
 * key device may hold one, or a link to one) gives -EMEDIUMTYPE before
 * any open, as its open or read could block the boot for good; a file not
 * on req->within's filesystem gives -EXDEV. Returns 0, -EFBIG when it is
 * larger than size (or limit is), -ENODATA when it ends before offset +
 * limit (or nothing is left after offset), or -errno. The caller wipes
 * buf. */
int key_file_read(const struct key_request *req, char *buf, size_t size, size_t *len);
/* What a key_file_read error means, for messages. */
const char *key_read_strerror(int r);
/* Mount /dev/DEVNAME read-only (without replaying a journal, so nothing
 * is written), read req's key on it, unmount. Returns what key_file_read
 * does; what failed is in why (for the caller's message). */
int keydev_read(const char *devname, const struct key_request *req, char *buf, size_t size,
		size_t *len, char *why, size_t why_size);

#endif
