/* archive: walk the cpio entries of an initramfs, through its compressed members. */
#include "gen/archive/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/termescape.h"
#include "gen/archive/decompress.h"
#include "gen/gen_report.h"

struct walk {
	archive_fn fn;
	void *ctx;
	unsigned int member;
	size_t budget;              /* bytes the compressed members may still unpack to */
	struct archive_error *err;
};

/* A real image unpacks to about 4 times its size (Debian's generic one:
 * 35 MB to 143 MB; dracut's, with compressed modules, less). 32 times
 * leaves room for any of them; the floor covers small images of text, and
 * DECOMPRESS_MAX_OUT the largest. A hostile 264 KB file of zstd members is
 * then stopped after 72 MiB instead of unpacking 8 GiB. */
#define BUDGET_FLOOR (64UL * 1024 * 1024)
#define BUDGET_RATIO 32

size_t archive_unpack_budget(size_t image_len)
{
	if (image_len >= (DECOMPRESS_MAX_OUT - BUDGET_FLOOR) / BUDGET_RATIO)
		return DECOMPRESS_MAX_OUT;
	return BUDGET_FLOOR + BUDGET_RATIO * image_len;
}

static int walk_fail(struct walk *w, const char *why, size_t offset)
{
	w->err->why = why;
	w->err->offset = offset;
	return -EINVAL;
}

/* newc-crc: the check field is the sum of the data bytes, modulo 2^32. */
static bool crc_matches(const unsigned char *data, size_t len, unsigned long check)
{
	uint32_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += data[i];
	return sum == (uint32_t)check;
}

/* One entry at *pos; sets *done at the trailer. Offsets are from the start of
 * buf, which is where the kernel counts the 4-byte alignment from too. */
static int entry_walk(struct walk *w, const unsigned char *buf, size_t len, size_t *pos, bool *done)
{
	struct cpio_header h;
	struct archive_entry e = { .hdr = &h, .member = w->member };
	size_t p = *pos;

	if (len - p < CPIO_HEADER_LEN)
		return walk_fail(w, "truncated cpio header", p);
	if (cpio_header_parse(buf + p, len - p, &h) < 0)
		return walk_fail(w, "malformed cpio header", p);
	p += CPIO_HEADER_LEN;
	if (h.namesize == 0 || h.namesize > len - p)
		return walk_fail(w, "cpio name size out of range", p);
	e.path = (const char *)buf + p;
	if (memchr(e.path, '\0', h.namesize) != e.path + h.namesize - 1)
		return walk_fail(w, "cpio name not NUL-terminated", p);
	p += h.namesize;
	p += cpio_pad(p);
	if (p > len)
		return walk_fail(w, "truncated cpio name padding", len);
	if (strcmp(e.path, CPIO_TRAILER) == 0) {
		*pos = p;
		*done = true;
		return 0;
	}
	if (h.filesize > len - p)
		return walk_fail(w, "cpio file data runs past the end", p);
	e.data = buf + p;
	e.size = h.filesize;
	/* Only regular files carry a sum; GNU cpio writes 0 for the rest. */
	if (h.crc && S_ISREG(h.mode) && !crc_matches(e.data, e.size, h.check))
		return walk_fail(w, "cpio checksum mismatch", p);
	p += h.filesize;
	p += cpio_pad(p);
	if (p > len)
		return walk_fail(w, "truncated cpio data padding", len);
	*pos = p;
	return w->fn(&e, w->ctx);
}

/* One cpio archive, up to and including its trailer. */
static int member_walk(struct walk *w, const unsigned char *buf, size_t len, size_t *pos)
{
	bool done = false;

	while (!done) {
		if (*pos >= len)
			return walk_fail(w, "cpio archive ends without TRAILER!!!", *pos);
		int err = entry_walk(w, buf, len, pos, &done);
		if (err < 0)
			return err;
	}
	w->member++;
	return 0;
}

static int buffer_walk(struct walk *w, const unsigned char *buf, size_t len, bool top);

/* A compressed member at *pos: unpack it and walk what it holds. */
static int compressed_walk(struct walk *w, const struct decompressor *d,
			   const unsigned char *buf, size_t len, size_t *pos)
{
	unsigned char *out;
	size_t out_len, used;
	int err = d->unpack(buf + *pos, len - *pos, w->budget, &out, &out_len, &used);

	if (err < 0) {
		walk_fail(w, err == -EFBIG ? "the image unpacks to more than its budget"
			     : err == -ENOMEM ? "compressed member too large to unpack"
			     : "corrupt or truncated compressed member", *pos);
		w->err->format = d->name;
		return err;
	}
	w->budget -= out_len;
	/* Offsets inside the member are its own: say where it started. */
	err = buffer_walk(w, out, out_len, false);
	free(out);
	if (err < 0 && w->err->why)
		w->err->offset += *pos;
	*pos += used;
	return err;
}

/* Archives, zero padding and (at the top level) compressed members, as the
 * kernel's unpacker takes them one after the other. */
static int buffer_walk(struct walk *w, const unsigned char *buf, size_t len, bool top)
{
	size_t pos = 0;

	while (pos < len) {
		const struct decompressor *d;
		int err;

		if (buf[pos] == 0) {
			pos++;
			continue;
		}
		if (buf[pos] == '0')
			err = member_walk(w, buf, len, &pos);
		else if (top && (d = decompress_find(buf + pos, len - pos)))
			err = compressed_walk(w, d, buf, len, &pos);
		else
			err = walk_fail(w, top ? "neither cpio nor a known compression"
					       : "unexpected data after a cpio archive", pos);
		if (err < 0)
			return err;
	}
	return 0;
}

int archive_walk_buffer(const void *buf, size_t len, archive_fn fn, void *ctx,
			struct archive_error *err)
{
	struct archive_error ignored = { NULL, 0, NULL };
	struct walk w = { .fn = fn, .ctx = ctx, .budget = archive_unpack_budget(len),
			  .err = err ? err : &ignored };

	*w.err = (struct archive_error){ NULL, 0, NULL };
	if (len == 0)
		return walk_fail(&w, "empty file", 0);
	return buffer_walk(&w, buf, len, true);
}

/* Map path read-only; reports and returns -errno. */
static int file_map(const char *path, void **map, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0) {
		err = -errno;
		gen_error("cannot open image %s: %s", path, strerror(-err));
		return err;
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		gen_error("cannot stat image %s: %s", path, strerror(-err));
	} else if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		gen_error("%s is not a regular file; give the path of an initramfs image", path);
	} else if (st.st_size == 0) {
		err = -EINVAL;
		gen_error("%s is empty; it is not an initramfs image", path);
	} else {
		*len = (size_t)st.st_size;
		*map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (*map == MAP_FAILED) {
			err = -errno;
			gen_error("cannot read image %s: %s", path, strerror(-err));
		}
	}
	close(fd);
	return err;
}

/* path as one word for a POSIX shell: between single quotes, each ' as
 * '\'' so that no quote of the name ends the word (NULL: out of memory). */
static char *shell_word(const char *path)
{
	size_t n = 3;
	char *word, *o;

	for (const char *p = path; *p; p++)
		n += *p == '\'' ? 4 : 1;
	word = malloc(n);
	if (!word)
		return NULL;
	o = stpcpy(word, "'");
	for (const char *p = path; *p; p++)
		o = *p == '\'' ? stpcpy(o, "'\\''") : stpncpy(o, p, 1);
	strcpy(o, "'");
	return word;
}

/* The member that would pass the budget: where it is, why the budget, and
 * how to list it anyway if the image is genuine. The command names the
 * image as a quoted shell word, or as IMAGE when its name had to be shown
 * escaped (bytes a terminal acts on): pasting the escape would name
 * another file. */
static void budget_report(const char *path, size_t len, const struct archive_error *why)
{
	size_t n = strlen(path), shown_len = term_escape(NULL, 0, path, n, 0) + 1;
	char *shown = malloc(shown_len), *word = NULL;

	if (shown) {
		term_escape(shown, shown_len, path, n, 0);
		if (strcmp(shown, path) == 0)
			word = shell_word(path);
	}
	gen_error("%s: refusing the %s member at offset %llu: the image would unpack to more than "
		  "%zu MiB (%lu MiB plus %d times its size, at most %lu MiB, so that a small "
		  "hostile file cannot take minutes and gigabytes); what comes before it was listed. "
		  "If the image is genuine, list that member with: tail -c +%llu %s | %s -dc | cpio -itv%s",
		  shown ? shown : "the image", why->format, why->offset,
		  archive_unpack_budget(len) >> 20, BUDGET_FLOOR >> 20, BUDGET_RATIO,
		  DECOMPRESS_MAX_OUT >> 20, why->offset + 1, word ? word : "IMAGE", why->format,
		  word ? "" : " (IMAGE: the image named above, its name shown escaped)");
	free(word);
	free(shown);
}

int archive_walk_file(const char *path, archive_fn fn, void *ctx)
{
	struct archive_error why;
	void *map = NULL;
	size_t len = 0;
	int err = file_map(path, &map, &len);

	if (err < 0)
		return err;
	err = archive_walk_buffer(map, len, fn, ctx, &why);
	if (err == -EFBIG && why.format)
		budget_report(path, len, &why);
	else if (err < 0 && why.why)
		gen_error("%s is not a readable initramfs: %s at offset %llu", path, why.why, why.offset);
	munmap(map, len);
	return err;
}
