/* Unit tests: whole files in memory, small files into a buffer or quoted
 * into a stream, and reads and writes of a whole length on a descriptor
 * (common/fileread.c, common/filewrite.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/filewrite.h"

static void write_file(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	fclose(f);
}

/* Sizes around the bound and the buffer's growth: exactly max is read,
 * one byte more is refused; the content is exact and NUL-terminated. */
static void bounds_and_content(void **state)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 10000 };
	char path[] = "/tmp/lifeboat-fileread-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		char *data;
		size_t len;

		write_file(path, sizes[k]);
		assert_int_equal(file_read_all(path, sizes[k] ? sizes[k] : 1, &data, &len), 0);
		assert_int_equal(len, sizes[k]);
		assert_int_equal(data[len], '\0');
		for (size_t i = 0; i < len; i++)
			assert_int_equal(data[i], 'a' + (int)(i % 26));
		free(data);
		if (sizes[k] > 0)
			assert_int_equal(file_read_all(path, sizes[k] - 1, &data, &len), -EFBIG);
	}
	unlink(path);
}

/* /proc files say size 0 and still have content; a missing file is -ENOENT. */
static void proc_and_missing(void **state)
{
	char *data;
	size_t len;

	(void)state;
	assert_int_equal(file_read_all("/proc/self/status", 1 << 20, &data, &len), 0);
	assert_true(len > 0);
	assert_non_null(strstr(data, "Name:"));
	free(data);
	assert_int_equal(file_read_all("/nonexistent/lifeboat", 100, &data, &len), -ENOENT);
}

/* A packet socket hands over one write per read: the read goes on until
 * len, or stops at the end. */
static void read_full_through_short_reads(void **state)
{
	char buf[16];
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	assert_int_equal(write(sv[1], "abc", 3), 3);
	assert_int_equal(write(sv[1], "def", 3), 3);
	assert_int_equal(write(sv[1], "gh", 2), 2);
	close(sv[1]);
	assert_int_equal(file_read_fd(sv[0], buf, 6), 6);
	assert_memory_equal(buf, "abcdef", 6);
	assert_int_equal(file_read_fd(sv[0], buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "gh", 2);
	assert_int_equal(file_read_fd(sv[0], buf, sizeof(buf)), 0);
	close(sv[0]);
	assert_int_equal(file_read_fd(-1, buf, 1), -EBADF);
}

/* At an offset: what is there, less at the end, the position unmoved; an
 * offset no file can have is refused. A write at an offset lands there. */
static void pread_and_pwrite_at_offsets(void **state)
{
	char path[] = "/tmp/lifeboat-fdio-XXXXXX", buf[16];
	int fd = mkstemp(path), ro;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(file_write_fd(fd, "0123456789", 10), 0);
	assert_int_equal(file_write_fd_at(fd, "xyz", 3, 4), 0);
	assert_int_equal(file_write_fd_at(fd, "end", 3, 12), 0);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 10);
	assert_int_equal(file_read_fd_at(fd, buf, 4, 3), 4);
	assert_memory_equal(buf, "3xyz", 4);
	assert_int_equal(file_read_fd_at(fd, buf, sizeof(buf), 8), 7);
	assert_memory_equal(buf, "89\0\0end", 7);
	assert_int_equal(file_read_fd_at(fd, buf, sizeof(buf), 100), 0);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 10);
	assert_int_equal(file_read_fd_at(fd, buf, 2, UINT64_MAX - 1), -EINVAL);
	assert_int_equal(file_write_fd_at(fd, "ab", 2, (uint64_t)INT64_MAX), -EINVAL);
	ro = open(path, O_RDONLY);
	assert_true(ro >= 0);
	assert_int_equal(file_write_fd_at(ro, "ab", 2, 0), -EBADF);
	close(ro);
	close(fd);
	unlink(path);
}

/* A small file into a buffer: cut at size - 1, NUL-terminated; O_NOFOLLOW
 * refuses a link; a missing file leaves "". */
static void small_file_text(void **state)
{
	char path[] = "/tmp/lifeboat-text-XXXXXX", link[64], buf[8];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(file_write_fd(fd, "hello\nworld\n", 12), 0);
	close(fd);
	assert_int_equal(file_read_text(path, 0, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "hello\nw");
	assert_int_equal(file_read_text(path, O_NOFOLLOW, buf, 4), 3);
	assert_string_equal(buf, "hel");
	snprintf(link, sizeof(link), "%s.link", path);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(file_read_text(link, 0, buf, sizeof(buf)), 7);
	assert_int_equal(file_read_text(link, O_NOFOLLOW, buf, sizeof(buf)), -ELOOP);
	assert_string_equal(buf, "");
	assert_int_equal(file_read_text("/nonexistent/lifeboat", 0, buf, sizeof(buf)), -ENOENT);
	assert_string_equal(buf, "");
	assert_int_equal(file_read_text(path, 0, buf, 0), -EINVAL);
	unlink(link);
	unlink(path);
}

/* file_write_text: O_EXCL keeps an existing file, O_TRUNC replaces it,
 * O_NOFOLLOW refuses a link. */
static void text_written(void **state)
{
	char path[] = "/tmp/lifeboat-wtext-XXXXXX", link[64], buf[16];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(file_write_text(path, "first\n", O_EXCL), 0);
	assert_int_equal(file_write_text(path, "second\n", O_EXCL), -EEXIST);
	assert_int_equal(file_read_text(path, 0, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "first\n");
	assert_int_equal(file_write_text(path, "new\n", O_TRUNC), 0);
	assert_int_equal(file_read_text(path, 0, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "new\n");
	snprintf(link, sizeof(link), "%s.link", path);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(file_write_text(link, "x\n", O_TRUNC | O_NOFOLLOW), -ELOOP);
	unlink(link);
	unlink(path);
}

/* A file quoted into a stream as it is, a large one whole; a missing one
 * writes nothing and says why. */
static void copied_to_a_stream(void **state)
{
	char path[] = "/tmp/lifeboat-copy-XXXXXX", *text = NULL;
	int fd = mkstemp(path);
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, 10000);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(file_read_to_stream(path, out), 0);
	assert_int_equal(file_read_to_stream("/nonexistent/lifeboat", out), -ENOENT);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(len, 10000);
	for (size_t i = 0; i < len; i++)
		assert_int_equal(text[i], 'a' + (int)(i % 26));
	free(text);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bounds_and_content),
		cmocka_unit_test(proc_and_missing),
		cmocka_unit_test(read_full_through_short_reads),
		cmocka_unit_test(pread_and_pwrite_at_offsets),
		cmocka_unit_test(small_file_text),
		cmocka_unit_test(text_written),
		cmocka_unit_test(copied_to_a_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
