/* Tests for gen/archive/cpio.c and gen/archive/sink.c: header bytes, padding, trailer, parsing,
 * and the gzip stream zlib can read back. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <zlib.h>

#include "gen/archive/cpio.h"
#include "gen/archive/sink.h"
#include "tests/unit/image_fixture.h"

/* Write through a sink into a temp file and read the bytes back. */
struct captured {
	char *dir;
	char path[PATH_MAX];
	int fd;
	struct sink sink;
};

static struct captured *capture_start(bool gzip)
{
	struct captured *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	c->dir = fixture_tmpdir();
	snprintf(c->path, sizeof(c->path), "%s/out", c->dir);
	c->fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(c->fd >= 0);
	assert_int_equal(sink_open(&c->sink, c->fd, gzip ? SINK_GZIP : SINK_NONE), 0);
	return c;
}

static unsigned char *capture_end(struct captured *c, size_t *len)
{
	unsigned char *data;

	assert_int_equal(sink_finish(&c->sink), 0);
	close(c->fd);
	data = fixture_read(c->path, len);
	assert_non_null(data);
	fixture_rmrf(c->dir);
	free(c);
	return data;
}

static void test_header_bytes(void **state)
{
	struct captured *c = capture_start(false);
	struct cpio_header h = {
		.ino = 0x12, .mode = 0100644, .nlink = 1, .mtime = 0x5f5e0ff,
		.filesize = 3, .rdevmajor = 5, .rdevminor = 1,
	};
	const char *expect = "070701" "00000012" "000081A4" "00000000" "00000000" "00000001"
			     "05F5E0FF" "00000003" "00000000" "00000000" "00000005" "00000001"
			     "00000006" "00000000";
	unsigned char *data;
	size_t len;

	(void)state;
	assert_int_equal(cpio_write_header(&c->sink, &h, "etc/x"), 0);
	/* 110 + 6 = 116, already a multiple of 4. */
	assert_int_equal(c->sink.offset, 116);
	assert_int_equal(sink_write(&c->sink, "abc", 3), 0);
	assert_int_equal(cpio_write_data_pad(&c->sink), 0);
	assert_int_equal(c->sink.offset, 120);
	assert_int_equal(cpio_write_trailer(&c->sink), 0);
	data = capture_end(c, &len);
	assert_int_equal(strlen(expect), CPIO_HEADER_LEN);
	assert_memory_equal(data, expect, CPIO_HEADER_LEN);
	assert_memory_equal(data + 110, "etc/x\0abc\0", 10);
	/* The trailer: header, "TRAILER!!!\0" (11), padded from 241 to 244. */
	assert_int_equal(len, 120 + 110 + 11 + 3);
	assert_memory_equal(data + 120, "070701", 6);
	assert_memory_equal(data + 230, "TRAILER!!!", 11);
	free(data);
}

static void test_name_padding(void **state)
{
	(void)state;
	/* The name ends the header at 110 + namesize; padding brings it to 4. */
	for (size_t n = 1; n < 12; n++) {
		struct captured *c = capture_start(false);
		struct cpio_header h = { .mode = 040755, .nlink = 2 };
		char name[16];
		unsigned char *data;
		size_t len;

		memset(name, 'a', n);
		name[n] = '\0';
		assert_int_equal(cpio_write_header(&c->sink, &h, name), 0);
		data = capture_end(c, &len);
		assert_int_equal(len % 4, 0);
		assert_true(len >= 110 + n + 1 && len < 110 + n + 1 + 4);
		for (size_t i = 110 + n; i < len; i++)
			assert_int_equal(data[i], 0);
		free(data);
	}
	assert_int_equal(cpio_pad(0), 0);
	assert_int_equal(cpio_pad(1), 3);
	assert_int_equal(cpio_pad(2), 2);
	assert_int_equal(cpio_pad(7), 1);
}

static void test_header_parse(void **state)
{
	const char *good = "070702" "00000012" "000081a4" "00000000" "00000000" "00000001"
			   "05F5E0FF" "00000003" "00000000" "00000000" "00000005" "00000001"
			   "00000006" "0000ABCD";
	struct cpio_header h;
	unsigned char buf[CPIO_HEADER_LEN];

	(void)state;
	assert_int_equal(cpio_header_parse((const unsigned char *)good, 110, &h), 0);
	assert_true(h.crc);
	assert_int_equal(h.ino, 0x12);
	assert_int_equal(h.mode, 0100644);
	assert_int_equal(h.mtime, 0x5f5e0ff);
	assert_int_equal(h.filesize, 3);
	assert_int_equal(h.rdevmajor, 5);
	assert_int_equal(h.rdevminor, 1);
	assert_int_equal(h.namesize, 6);
	assert_int_equal(h.check, 0xabcd);
	assert_int_equal(cpio_header_parse((const unsigned char *)good, 109, &h), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[5] = '7';   /* "070707" is the old binary-portable format */
	assert_int_equal(cpio_header_parse(buf, sizeof(buf), &h), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[20] = 'g';
	assert_int_equal(cpio_header_parse(buf, sizeof(buf), &h), -EINVAL);
	memcpy(buf, good, sizeof(buf));
	buf[109] = ' ';
	assert_int_equal(cpio_header_parse(buf, sizeof(buf), &h), -EINVAL);
}

static void test_gzip_sink(void **state)
{
	struct captured *c = capture_start(true);
	unsigned char in[100000], out[100000 + 16];
	uLongf out_len = sizeof(out);
	z_stream zs = { 0 };
	unsigned char *data;
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)((i * 31) ^ (i >> 7));
	assert_int_equal(sink_write(&c->sink, in, 5000), 0);
	assert_int_equal(sink_zeros(&c->sink, 1000), 0);
	assert_int_equal(sink_write(&c->sink, in + 6000, sizeof(in) - 6000), 0);
	assert_int_equal(c->sink.offset, sizeof(in));
	data = capture_end(c, &len);
	/* gzip magic, deflate, and a zero mtime in bytes 4..7. */
	assert_int_equal(data[0], 0x1f);
	assert_int_equal(data[1], 0x8b);
	assert_int_equal(data[2], 8);
	assert_memory_equal(data + 4, "\0\0\0\0", 4);
	assert_int_equal(data[9], 3);
	assert_int_equal(inflateInit2(&zs, 16 + 15), Z_OK);
	zs.next_in = data;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = sizeof(out);
	assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
	out_len = zs.total_out;
	inflateEnd(&zs);
	assert_int_equal(out_len, sizeof(in));
	memset(in + 5000, 0, 1000);
	assert_memory_equal(out, in, sizeof(in));
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_bytes),
		cmocka_unit_test(test_name_padding),
		cmocka_unit_test(test_header_parse),
		cmocka_unit_test(test_gzip_sink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
