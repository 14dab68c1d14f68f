/* Unit tests: modules packed by the generator and decompressed by the init. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/unxz.h"
#include "gen/kmod/modpack.h"

/* A real module of the installed kernel, found at run time. */
static int find_module(char *path, size_t size)
{
	DIR *d = opendir("/lib/modules");
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, size, "/lib/modules/%s/kernel/drivers/block/virtio_blk.ko", de->d_name);
		found = access(path, R_OK) == 0;
	}
	if (d)
		closedir(d);
	return found;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int write_temp(const void *data, size_t len, char *path)
{
	int fd;

	strcpy(path, "/tmp/lifeboat-modpack-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	return fd;
}

/* Pack a real module as the generator does, decompress it as the init does:
 * the same bytes, and packing twice gives the same stream. */
static void round_trip_real_module(void **state)
{
	char ko[512], tmp[64];
	struct modpack_job jobs[2] = { { .src = ko }, { .src = ko } };
	void *orig, *back;
	size_t orig_len, back_len;
	int fd;

	(void)state;
	if (!find_module(ko, sizeof(ko)))
		fail_msg("no virtio_blk.ko under /lib/modules: install linux-image-amd64");
	orig = slurp(ko, &orig_len);
	assert_int_equal(modpack_run(jobs, 2), 0);
	assert_true(jobs[0].len < orig_len);
	assert_int_equal(jobs[0].len, jobs[1].len);
	assert_memory_equal(jobs[0].data, jobs[1].data, jobs[0].len);
	fd = write_temp(jobs[0].data, jobs[0].len, tmp);
	assert_true(unxz_is_xz(fd));
	assert_int_equal(unxz_fd(fd, &back, &back_len), 0);
	assert_int_equal(back_len, orig_len);
	assert_memory_equal(back, orig, orig_len);
	close(fd);
	unlink(tmp);
	free(back);
	free(orig);
	free(jobs[0].data);
	free(jobs[1].data);
}

/* A cut or altered stream is refused, never loaded half. */
static void damaged_streams_are_refused(void **state)
{
	static const char text[] = "a module that is not really a module, repeated repeated repeated";
	void *packed, *back;
	size_t len, back_len;
	char tmp[64];
	int fd;

	(void)state;
	assert_int_equal(modpack_xz(text, sizeof(text), &packed, &len), 0);
	fd = write_temp(packed, len - 5, tmp);
	assert_int_equal(unxz_fd(fd, &back, &back_len), -EINVAL);
	close(fd);
	unlink(tmp);
	((unsigned char *)packed)[len / 2] ^= 0x55;
	fd = write_temp(packed, len, tmp);
	assert_int_equal(unxz_fd(fd, &back, &back_len), -EINVAL);
	close(fd);
	unlink(tmp);
	fd = write_temp(text, sizeof(text), tmp);
	assert_false(unxz_is_xz(fd));
	close(fd);
	unlink(tmp);
	free(packed);
}

/* A module stored plain is the module's bytes, for finit_module by descriptor. */
static void plain_job_is_the_module(void **state)
{
	char ko[512];
	struct modpack_job job = { .src = ko, .plain = true };
	void *orig;
	size_t orig_len;

	(void)state;
	if (!find_module(ko, sizeof(ko)))
		fail_msg("no virtio_blk.ko under /lib/modules: install linux-image-amd64");
	orig = slurp(ko, &orig_len);
	assert_int_equal(modpack_run(&job, 1), 0);
	assert_int_equal(job.len, orig_len);
	assert_memory_equal(job.data, orig, orig_len);
	free(job.data);
	free(orig);
}

static void missing_module_fails(void **state)
{
	struct modpack_job job = { .src = "/nonexistent/x.ko" };

	(void)state;
	assert_int_equal(modpack_run(&job, 1), -ENOENT);
	assert_null(job.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_real_module),
		cmocka_unit_test(damaged_streams_are_refused),
		cmocka_unit_test(plain_job_is_the_module),
		cmocka_unit_test(missing_module_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
