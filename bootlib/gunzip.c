/* gunzip: read a gzip-compressed file into memory (the image's modules). */
#include "bootlib/gunzip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The largest module the init inflates; Debian's largest is under 20 MB. */
#define GUNZIP_MAX (256u << 20)

bool gunzip_is_gzip(int fd)
{
	unsigned char magic[2];

	return pread(fd, magic, sizeof(magic), 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

/* The gzip trailer's ISIZE: the uncompressed size modulo 2^32. */
static size_t gzip_isize(const unsigned char *in, size_t len)
{
	if (len < 18)
		return 0;
	in += len - 4;
	return (size_t)in[0] | (size_t)in[1] << 8 | (size_t)in[2] << 16 | (size_t)in[3] << 24;
}

static int inflate_all(const unsigned char *in, size_t in_len, void **out, size_t *len)
{
	size_t size = gzip_isize(in, in_len);
	z_stream zs = { .next_in = (Bytef *)in, .avail_in = (uInt)in_len };
	unsigned char *buf;
	int rc;

	if (size == 0 || size > GUNZIP_MAX)
		return -EINVAL;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	if (inflateInit2(&zs, 15 + 16) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	zs.next_out = buf;
	zs.avail_out = (uInt)size;
	rc = inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	/* The trailer's size must be exactly what the stream holds. */
	if (rc != Z_STREAM_END || zs.total_out != size) {
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	*len = size;
	return 0;
}

int gunzip_fd(int fd, void **out, size_t *len)
{
	struct stat st;
	void *in;
	int r;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < 18 || (uint64_t)st.st_size > UINT32_MAX)
		return -EINVAL;
	in = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (in == MAP_FAILED)
		return -errno;
	r = inflate_all(in, (size_t)st.st_size, out, len);
	munmap(in, (size_t)st.st_size);
	return r;
}
