/* cpio: write and parse "newc" (070701) headers, their padding, the trailer. */
#include "gen/archive/cpio.h"

#include <errno.h>
#include <string.h>

/* Eight upper-case hex digits, no NUL. */
static void hex8_put(char *p, unsigned long v)
{
	static const char digits[] = "0123456789ABCDEF";

	for (int i = 7; i >= 0; i--, v >>= 4)
		p[i] = digits[v & 15];
}

int cpio_write_header(struct sink *s, struct cpio_header *h, const char *name)
{
	/* The order of the fields is the format: magic, then 13 numbers. */
	const unsigned long fields[] = {
		h->ino,
		h->mode,
		h->uid,
		h->gid,
		h->nlink,
		h->mtime,
		h->filesize,
		h->devmajor,
		h->devminor,
		h->rdevmajor,
		h->rdevminor,
		h->namesize = strlen(name) + 1,
		h->check,
	};
	char buf[CPIO_HEADER_LEN];
	int err;

	memcpy(buf, h->crc ? CPIO_MAGIC_CRC : CPIO_MAGIC_NEWC, 6);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		/* A field has 32 bits: a file of 4 GiB or more does not fit. */
		if (fields[i] > 0xffffffffUL)
			return -EFBIG;
		hex8_put(buf + 6 + 8 * i, fields[i]);
	}
	err = sink_write(s, buf, CPIO_HEADER_LEN);
	if (err == 0)
		err = sink_write(s, name, h->namesize);
	if (err == 0)
		err = sink_zeros(s, cpio_pad(s->offset));
	return err;
}

int cpio_write_data_pad(struct sink *s)
{
	return sink_zeros(s, cpio_pad(s->offset));
}

int cpio_write_trailer(struct sink *s)
{
	/* nlink 1 as the kernel's own gen_init_cpio writes it. */
	struct cpio_header h = { .nlink = 1 };

	return cpio_write_header(s, &h, CPIO_TRAILER);
}

/* Eight hex digits; anything else (sign, space, 0x) is malformed. */
static int hex8_parse(const unsigned char *p, unsigned long *out)
{
	unsigned long v = 0;

	for (int i = 0; i < 8; i++) {
		unsigned char c = p[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

int cpio_header_parse(const unsigned char *buf, size_t len, struct cpio_header *h)
{
	unsigned long *fields[] = {
		&h->ino, &h->mode, &h->uid, &h->gid, &h->nlink, &h->mtime,
		&h->filesize, &h->devmajor, &h->devminor, &h->rdevmajor,
		&h->rdevminor, &h->namesize, &h->check,
	};

	if (len < CPIO_HEADER_LEN)
		return -EINVAL;
	if (memcmp(buf, CPIO_MAGIC_NEWC, 6) == 0)
		h->crc = false;
	else if (memcmp(buf, CPIO_MAGIC_CRC, 6) == 0)
		h->crc = true;
	else
		return -EINVAL;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (hex8_parse(buf + 6 + 8 * i, fields[i]) < 0)
			return -EINVAL;
	return 0;
}
