/* cpio: the "newc" archive format the kernel unpacks into its initramfs.
 *
 * Documentation/driver-api/early-userspace/buffer-format.rst: each entry is a
 * 110-byte ASCII header, the NUL-terminated name, padding to a multiple of 4
 * bytes, then the data, padded to 4 again. Numbers are 8 hex digits. The
 * archive ends with an entry named "TRAILER!!!".
 */
#ifndef LIFEBOAT_CPIO_H
#define LIFEBOAT_CPIO_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/archive/sink.h"

#define CPIO_HEADER_LEN 110
#define CPIO_MAGIC_NEWC "070701"
#define CPIO_MAGIC_CRC "070702"   /* newc with a checksum of the data */
#define CPIO_TRAILER "TRAILER!!!"

/* One header, named as the format names its fields. */
struct cpio_header {
	bool crc;                  /* magic 070702: check holds the data sum */
	unsigned long ino;
	unsigned long mode;        /* file type and permission bits */
	unsigned long uid;
	unsigned long gid;
	unsigned long nlink;
	unsigned long mtime;
	unsigned long filesize;    /* bytes of data after the name */
	unsigned long devmajor;    /* device holding the file (hard link key) */
	unsigned long devminor;
	unsigned long rdevmajor;   /* the device a node stands for */
	unsigned long rdevminor;
	unsigned long namesize;    /* name length including the NUL */
	unsigned long check;
};

/* Bytes of zero padding that bring offset to a multiple of 4. */
static inline size_t cpio_pad(unsigned long long offset)
{
	return (size_t)((4 - (offset & 3)) & 3);
}

/* Write header h and name (h->namesize is set from name), padded. */
int cpio_write_header(struct sink *s, struct cpio_header *h, const char *name);
/* Pad after an entry's data. */
int cpio_write_data_pad(struct sink *s);
/* The closing "TRAILER!!!" entry. */
int cpio_write_trailer(struct sink *s);

/* Parse the 110 bytes at buf. -EINVAL if the magic or a digit is wrong. */
int cpio_header_parse(const unsigned char *buf, size_t len, struct cpio_header *h);

#endif
