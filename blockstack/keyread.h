/* keyread: the bytes of a LUKS key file, from the image or from a key device. */
#ifndef LIFEBOAT_BLOCKSTACK_KEYREAD_H
#define LIFEBOAT_BLOCKSTACK_KEYREAD_H

#include <stddef.h>

#include "init/rootspec.h"

/* Keys are fed to cryptsetup through a pipe, which holds this much
 * without blocking (LUKS key files are usually 512 to 4096 bytes). */
#define KEY_BYTES_MAX 8192
/* Where a key device is mounted while its key file is read. */
#define KEYDEV_MOUNT "/run/lifeboat/keydev"

/* Read the file at path into buf (size bytes at most), setting *len.
 * Returns 0, -EFBIG when it is larger, or -errno. The caller wipes buf. */
int key_file_read(const char *path, char *buf, size_t size, size_t *len);
/* The block device spec names, if it exists now: its name into devname. */
int keydev_find(const struct root_spec *spec, char *devname, size_t size);
/* Mount /dev/DEVNAME read-only (without replaying a journal, so nothing
 * is written), read path on it, unmount. Returns 0, -EFBIG, or -errno;
 * what failed is in why (for the caller's message). */
int keydev_read(const char *devname, const char *path, char *buf, size_t size, size_t *len,
		char *why, size_t why_size);

#endif
