/* modfile: the files of a kernel module on the build host: the module itself
 * (decompressed) and the firmware it declares. */
#include "modfile.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

/* No module comes near this; a bigger output is a corrupt or hostile file. */
#define MODFILE_MAX_SIZE (512u << 20)

struct outbuf {
	unsigned char *p;
	size_t len;
	size_t cap;
};

/* Make room for at least one more chunk of output. */
static int outbuf_grow(struct outbuf *b)
{
	size_t cap = b->cap ? b->cap * 2 : 1u << 20;
	unsigned char *p;

	if (cap > MODFILE_MAX_SIZE)
		return -EFBIG;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static int xz_decompress(const unsigned char *in, size_t in_len, struct outbuf *b)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;
	int r = 0;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	s.next_in = in;
	s.avail_in = in_len;
	do {
		if (b->len == b->cap && (r = outbuf_grow(b)) < 0)
			break;
		s.next_out = b->p + b->len;
		s.avail_out = b->cap - b->len;
		ret = lzma_code(&s, LZMA_FINISH);
		b->len = b->cap - s.avail_out;
		if (ret != LZMA_OK && ret != LZMA_STREAM_END)
			r = -EBADMSG;
	} while (r == 0 && ret != LZMA_STREAM_END);
	lzma_end(&s);
	return r;
}

static int zstd_decompress(const unsigned char *in, size_t in_len, struct outbuf *b)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer input = { in, in_len, 0 };
	size_t ret = 1;
	int r = 0;

	if (!dctx)
		return -ENOMEM;
	/* ret 0 means a frame ended and everything it holds was flushed. */
	while (r == 0 && (ret != 0 || input.pos < input.size)) {
		ZSTD_outBuffer output;

		if (b->len == b->cap && (r = outbuf_grow(b)) < 0)
			break;
		output = (ZSTD_outBuffer){ b->p, b->cap, b->len };
		ret = ZSTD_decompressStream(dctx, &output, &input);
		b->len = output.pos;
		if (ZSTD_isError(ret))
			r = -EBADMSG;
		else if (ret != 0 && input.pos == input.size && output.pos < output.size)
			r = -EBADMSG;   /* truncated: more input wanted, none left */
	}
	ZSTD_freeDCtx(dctx);
	return r;
}

static int gzip_decompress(const unsigned char *in, size_t in_len, struct outbuf *b)
{
	z_stream z;
	int ret = Z_OK, r = 0;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip wrapper, not a raw zlib stream. */
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)in_len;
	while (r == 0 && ret != Z_STREAM_END) {
		if (b->len == b->cap && (r = outbuf_grow(b)) < 0)
			break;
		z.next_out = b->p + b->len;
		z.avail_out = (uInt)(b->cap - b->len);
		ret = inflate(&z, Z_FINISH);
		b->len = b->cap - z.avail_out;
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			r = -EBADMSG;
		else if (ret == Z_BUF_ERROR && z.avail_in == 0)
			r = -EBADMSG;   /* truncated */
	}
	inflateEnd(&z);
	return r;
}

/* Compressors by magic bytes, as libkmod recognises them. */
static const struct {
	const char *name;
	const unsigned char magic[6];
	size_t magic_len;
	int (*decompress)(const unsigned char *in, size_t in_len, struct outbuf *b);
} modfile_formats[] = {
	{ "xz", { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6, xz_decompress },
	{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, zstd_decompress },
	{ "gzip", { 0x1f, 0x8b }, 2, gzip_decompress },
};

#define N_FORMATS (sizeof(modfile_formats) / sizeof(modfile_formats[0]))

static int format_of(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < N_FORMATS; i++)
		if (len >= modfile_formats[i].magic_len &&
		    memcmp(p, modfile_formats[i].magic, modfile_formats[i].magic_len) == 0)
			return (int)i;
	return -1;
}

bool modfile_is_compressed(const char *path)
{
	unsigned char magic[6];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	return n > 0 && format_of(magic, (size_t)n) >= 0;
}

/* Slurp a whole file. */
static int file_read(const char *path, unsigned char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *p;
	size_t done = 0;
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size > MODFILE_MAX_SIZE) {
		r = st.st_size > MODFILE_MAX_SIZE ? -EFBIG : -errno;
		close(fd);
		return r;
	}
	p = malloc((size_t)st.st_size + 1);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, p + done, (size_t)st.st_size - done);

		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	close(fd);
	if (r < 0) {
		free(p);
		return r;
	}
	*data = p;
	*len = done;
	return 0;
}

int modfile_read(const char *path, void **data, size_t *len)
{
	struct outbuf b = { NULL, 0, 0 };
	unsigned char *raw = NULL;
	size_t raw_len = 0;
	int fmt, r;

	r = file_read(path, &raw, &raw_len);
	if (r < 0) {
		gen_error("reading module %s: %s; check the module directory is complete",
			  path, strerror(-r));
		return r;
	}
	fmt = format_of(raw, raw_len);
	if (fmt < 0) {
		*data = raw;
		*len = raw_len;
		return 0;
	}
	r = modfile_formats[fmt].decompress(raw, raw_len, &b);
	free(raw);
	if (r < 0) {
		gen_error("decompressing module %s (%s): %s; the file is damaged or truncated, "
			  "reinstall the kernel's modules", path, modfile_formats[fmt].name,
			  strerror(-r));
		free(b.p);
		return r;
	}
	*data = b.p;
	*len = b.len;
	return 0;
}

/* Module file names end in .ko, possibly followed by a compression suffix. */
static size_t ko_name_len(const char *path)
{
	static const char *const suffixes[] = { ".xz", ".zst", ".gz" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t s = strlen(suffixes[i]);

		if (n > s && strcmp(path + n - s, suffixes[i]) == 0)
			return n - s;
	}
	return n;
}

char *modfile_image_path(const char *path, const char *moddir, const char *kver)
{
	size_t dir_len = strlen(moddir);
	const char *rel;
	char *out;

	while (dir_len > 1 && moddir[dir_len - 1] == '/')
		dir_len--;
	if (strncmp(path, moddir, dir_len) == 0 && path[dir_len] == '/') {
		rel = path + dir_len + 1;
	} else {
		/* Not under moddir (an odd layout): keep the name only. */
		rel = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	}
	if (asprintf(&out, "/lib/modules/%s/%.*s.gz", kver, (int)ko_name_len(rel), rel) < 0)
		return NULL;
	return out;
}

/* Try DIR/NAME with each firmware suffix. */
static int firmware_try(const char *dir, size_t dir_len, const char *sub, const char *name,
			char **found, const char **suffix)
{
	static const char *const suffixes[] = { "", ".xz", ".zst" };

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *p;
		struct stat st;

		if (asprintf(&p, "%.*s%s%s/%s%s", (int)dir_len, dir, sub[0] ? "/" : "", sub,
			     name, suffixes[i]) < 0)
			return -ENOMEM;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			*found = p;
			*suffix = suffixes[i];
			return 0;
		}
		free(p);
	}
	return -ENOENT;
}

int modfile_firmware_find(const char *fwdirs, const char *kver, const char *name,
			  char **found, const char **suffix)
{
	const char *dirs = fwdirs ? fwdirs : "/lib/firmware/updates:/lib/firmware";

	/* The kernel's own search order: a per-version directory first. */
	while (*dirs) {
		size_t n = strcspn(dirs, ":");

		if (n > 0) {
			int r = firmware_try(dirs, n, kver, name, found, suffix);

			if (r == -ENOENT)
				r = firmware_try(dirs, n, "", name, found, suffix);
			if (r != -ENOENT)
				return r;
		}
		dirs += n;
		if (*dirs)
			dirs++;
	}
	return -ENOENT;
}
