/* unxz: read an xz-compressed file into memory (the image's modules).
 *
 * The size to allocate is read from the stream's own index (its footer
 * says where the index starts), so the output is one exact allocation and
 * a stream that holds anything else than what its index says is refused.
 *
 * liblzma is opened at run time (dlopen), not linked: an image with no xz
 * stream for the init to unpack (a host-only image stores its modules
 * plain) does not carry it, and the generator adds it to those that do
 * (gen/feature/unxz_pack.c). Without it every stream is -ELIBACC.
 */
#include "bootlib/unxz.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/lzmafn.h"
#include "common/filewrite.h"
#include "common/layout.h"

/* The largest module the init decompresses; Debian's largest is under 20 MB. */
#define UNXZ_MAX (256u << 20)
/* The image's modules use a 256 KiB dictionary (preset 0); a stream that
 * asks the decoder for more memory than this is not one of them. */
#define UNXZ_MEMLIMIT (64u << 20)

static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

static struct lzmafn lzma;
static bool lzma_ready;

/* liblzma, opened at the first stream and kept: 0 or -ELIBACC. */
static int lzma_open(void)
{
	int r = lzma_ready ? 0 : lzmafn_open(&lzma, LAYOUT_LIBLZMA);

	lzma_ready = r == 0;
	return r;
}

bool unxz_is_xz(int fd)
{
	unsigned char magic[sizeof(xz_magic)];

	return pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	       memcmp(magic, xz_magic, sizeof(magic)) == 0;
}

/* The uncompressed size the stream's index records; 0 when it cannot be read. */
static uint64_t xz_stream_size(const uint8_t *in, size_t in_len)
{
	lzma_stream_flags footer;
	lzma_index *index = NULL;
	uint64_t memlimit = UNXZ_MEMLIMIT, size;
	size_t pos = 0, index_start;

	if (in_len < 2 * LZMA_STREAM_HEADER_SIZE ||
	    lzma.stream_footer_decode(&footer, in + in_len - LZMA_STREAM_HEADER_SIZE) != LZMA_OK ||
	    footer.backward_size > in_len - 2 * LZMA_STREAM_HEADER_SIZE)
		return 0;
	index_start = in_len - LZMA_STREAM_HEADER_SIZE - (size_t)footer.backward_size;
	if (lzma.index_buffer_decode(&index, &memlimit, NULL, in + index_start, &pos,
				     (size_t)footer.backward_size) != LZMA_OK)
		return 0;
	size = lzma.index_uncompressed_size(index);
	lzma.index_end(index, NULL);
	return size;
}

static int unxz_all(const uint8_t *in, size_t in_len, void **out, size_t *len)
{
	uint64_t size = xz_stream_size(in, in_len), memlimit = UNXZ_MEMLIMIT;
	size_t in_pos = 0, out_pos = 0;
	uint8_t *buf;

	if (size == 0 || size > UNXZ_MAX)
		return -EINVAL;
	buf = malloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	/* The whole file must be the one stream, every byte of it checked. */
	if (lzma.stream_buffer_decode(&memlimit, 0, NULL, in, &in_pos, in_len, buf, &out_pos,
				      (size_t)size) != LZMA_OK ||
	    in_pos != in_len || out_pos != size) {
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	*len = (size_t)size;
	return 0;
}

int unxz_fd(int fd, void **out, size_t *len)
{
	struct stat st;
	void *in;
	int r;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < 2 * LZMA_STREAM_HEADER_SIZE || (uint64_t)st.st_size > UNXZ_MAX)
		return -EINVAL;
	r = lzma_open();
	if (r < 0)
		return r;
	in = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (in == MAP_FAILED)
		return -errno;
	r = unxz_all(in, (size_t)st.st_size, out, len);
	munmap(in, (size_t)st.st_size);
	return r;
}

int unxz_file(const char *src, const char *dst, mode_t mode)
{
	char tmp[PATH_MAX];
	void *data;
	size_t len;
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", dst) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = unxz_fd(fd, &data, &len);
	close(fd);
	if (r < 0)
		return r;
	fd = mkostemp(tmp, O_CLOEXEC);
	r = fd < 0 ? -errno : file_write_fd(fd, data, len);
	free(data);
	if (fd < 0)
		return r;
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, dst) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}
