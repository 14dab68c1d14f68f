/* Unit tests: whole files in memory (common/fileread.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bounds_and_content),
		cmocka_unit_test(proc_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
