/* Tests for gen/archive and gen/cmd/ls.c: archives made by GNU cpio, concatenated
 * and compressed members, this machine's initrd, broken input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <unistd.h>

#include "gen/cmd/ls.h"
#include "gen/image/image.h"
#include "tests/unit/image_fixture.h"

/* A small tree for GNU cpio to pack: a file, a symlink, two hard links. */
static char *tree_make(void)
{
	char *dir = fixture_tmpdir();

	assert_int_equal(fixture_sh("cd %s && mkdir -p t/etc t/bin && printf 'hello\\n' > t/etc/greeting && "
				    "chmod 0640 t/etc/greeting && ln -s ../etc/greeting t/bin/link && "
				    "printf 'linked' > t/bin/a && ln t/bin/a t/bin/b", dir), 0);
	return dir;
}

static struct listing *walk_path(const char *path, int expect)
{
	struct listing *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	assert_int_equal(archive_walk_file(path, listing_add, l), expect);
	return l;
}

static void gnu_archive_check(const char *fmt)
{
	char *dir = tree_make();
	char p[PATH_MAX];
	struct listing *l;
	const struct seen *s, *a, *b;

	assert_int_equal(fixture_sh("cd %s/t && find . | LC_ALL=C sort | cpio -o -H %s --quiet > ../x.cpio",
				    dir, fmt), 0);
	snprintf(p, sizeof(p), "%s/x.cpio", dir);
	l = walk_path(p, 0);
	assert_non_null(s = listing_find(l, "etc/greeting"));
	assert_true(S_ISREG(s->mode));
	assert_int_equal(s->mode & 07777, 0640);
	assert_string_equal(s->data, "hello\n");
	assert_non_null(s = listing_find(l, "bin/link"));
	assert_true(S_ISLNK(s->mode));
	assert_string_equal(s->data, "../etc/greeting");
	assert_non_null(s = listing_find(l, "etc"));
	assert_true(S_ISDIR(s->mode));
	a = listing_find(l, "bin/a");
	b = listing_find(l, "bin/b");
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->ino, b->ino);
	assert_int_equal(a->nlink, 2);
	/* GNU cpio puts the data on one of the names (the last) only. */
	assert_int_equal(a->size + b->size, 6);
	assert_string_equal(a->size ? a->data : b->data, "linked");
	free(l);
	fixture_rmrf(dir);
}

static void test_gnu_newc(void **state)
{
	(void)state;
	gnu_archive_check("newc");
}

static void test_gnu_crc(void **state)
{
	(void)state;
	gnu_archive_check("crc");
}

static void test_crc_mismatch(void **state)
{
	char *dir = tree_make();
	char p[PATH_MAX];
	unsigned char *data, *hit;
	size_t len;
	struct archive_error err;
	struct listing *l = calloc(1, sizeof(*l));

	(void)state;
	assert_int_equal(fixture_sh("cd %s/t && find . | cpio -o -H crc --quiet > ../x.cpio", dir), 0);
	snprintf(p, sizeof(p), "%s/x.cpio", dir);
	data = fixture_read(p, &len);
	assert_non_null(data);
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, NULL), 0);
	hit = memmem(data, len, "hello\n", 6);
	assert_non_null(hit);
	hit[0] = 'j';
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, &err), -EINVAL);
	assert_string_equal(err.why, "cpio checksum mismatch");
	free(l);
	free(data);
	fixture_rmrf(dir);
}

/* An early-microcode archive, zero padding, then a compressed one: the
 * layout of initramfs-tools and dracut images. */
static void concatenated_check(const char *compressor)
{
	char *dir = tree_make();
	char p[PATH_MAX];
	struct listing *l;
	const struct seen *s;

	assert_int_equal(fixture_sh(
		"cd %s && mkdir -p early/kernel/x86/microcode && printf ucode > early/kernel/x86/microcode/GenuineIntel.bin && "
		"(cd early && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > early.cpio && "
		"truncate -s %%512 early.cpio && (cd t && find . | LC_ALL=C sort | cpio -o -H newc --quiet | %s) > main.z && "
		"cat early.cpio main.z > initrd", dir, compressor), 0);
	snprintf(p, sizeof(p), "%s/initrd", dir);
	l = walk_path(p, 0);
	assert_non_null(s = listing_find(l, "kernel/x86/microcode/GenuineIntel.bin"));
	assert_int_equal(s->member, 0);
	assert_string_equal(s->data, "ucode");
	assert_non_null(s = listing_find(l, "etc/greeting"));
	assert_int_equal(s->member, 1);
	assert_string_equal(s->data, "hello\n");
	free(l);
	/* And the compressed member cut short is an error. */
	assert_int_equal(fixture_sh("cd %s && head -c -20 initrd > cut", dir), 0);
	snprintf(p, sizeof(p), "%s/cut", dir);
	free(walk_path(p, -EINVAL));
	fixture_rmrf(dir);
}

static void test_concatenated_gzip(void **state)
{
	(void)state;
	concatenated_check("gzip -9n");
}

static void test_concatenated_xz(void **state)
{
	(void)state;
	concatenated_check("xz --check=crc32");
}

static void test_concatenated_zstd(void **state)
{
	(void)state;
	concatenated_check("zstd -q -c");
}

/* lz4(1)'s legacy format, the one the kernel reads. */
static void test_concatenated_lz4(void **state)
{
	(void)state;
	concatenated_check("lz4 -l -q -c");
}

/* Our own image, raw and in every compression: every shorter prefix is rejected, never overread
 * (run under ASan by make asan-unit). */
static void test_truncated(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX];
	struct image *img = image_new();
	unsigned char *data;
	size_t len;
	struct listing *l = calloc(1, sizeof(*l));

	(void)state;
	assert_int_equal(image_add_data(img, "/etc/x", "0123456789", 10, 0), 0);
	assert_int_equal(image_add_symlink(img, "/bin", "usr/bin"), 0);
	for (int f = 0; f < SINK_FORMAT_COUNT; f++) {
		snprintf(p, sizeof(p), "%s/img%d", dir, f);
		assert_int_equal(image_write(img, p, (enum sink_format)f, 0), 0);
		data = fixture_read(p, &len);
		assert_non_null(data);
		l->len = 0;
		assert_int_equal(archive_walk_buffer(data, len, listing_add, l, NULL), 0);
		assert_int_equal(l->len, 3);   /* bin, etc, etc/x */
		for (size_t cut = 1; cut < len; cut++) {
			unsigned char *copy = malloc(cut);

			memcpy(copy, data, cut);
			assert_int_equal(archive_walk_buffer(copy, cut, listing_add, l, NULL), -EINVAL);
			free(copy);
		}
		free(data);
	}
	image_free(img);
	free(l);
	fixture_rmrf(dir);
}

static void test_corrupted(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX];
	struct image *img = image_new();
	unsigned char *file, data[1024];
	size_t len;
	struct listing *l = calloc(1, sizeof(*l));
	struct archive_error err;

	(void)state;
	assert_int_equal(image_add_data(img, "/x", "abc", 3, 0), 0);
	snprintf(p, sizeof(p), "%s/img", dir);
	assert_int_equal(image_write(img, p, SINK_NONE, 0), 0);
	image_free(img);
	file = fixture_read(p, &len);
	assert_non_null(file);
	assert_true(len > 128 && len <= sizeof(data));
	memcpy(data, file, len);
	free(file);
	/* namesize (field 12, at 6 + 11 * 8) far too large */
	memcpy(data + 94, "7FFFFFFF", 8);
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, &err), -EINVAL);
	assert_string_equal(err.why, "cpio name size out of range");
	memcpy(data + 94, "00000002", 8);
	/* filesize of the first entry (field 6, at 54) past the end */
	memcpy(data + 54, "00100000", 8);
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, &err), -EINVAL);
	memcpy(data + 54, "00000003", 8);
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, NULL), 0);
	data[3] = 'x';
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, &err), -EINVAL);
	assert_string_equal(err.why, "malformed cpio header");
	data[0] = 'x';
	assert_int_equal(archive_walk_buffer(data, len, listing_add, l, &err), -EINVAL);
	assert_string_equal(err.why, "neither cpio nor a known compression");
	assert_int_equal(archive_walk_buffer(data, 0, listing_add, l, NULL), -EINVAL);
	free(l);
	fixture_rmrf(dir);
}

/* The initramfs-tools image of this machine (zstd), if there is one. */
static void test_host_initrd(void **state)
{
	glob_t g;
	struct listing *l;
	bool ko = false;

	(void)state;
	if (glob("/boot/initrd.img-*", 0, NULL, &g) != 0)
		skip();
	l = walk_path(g.gl_pathv[0], 0);
	globfree(&g);
	assert_non_null(listing_find(l, "init"));
	for (size_t i = 0; i < l->len; i++) {
		size_t n = strlen(l->items[i].path);

		ko |= n > 3 && strcmp(l->items[i].path + n - 3, ".ko") == 0;
	}
	assert_true(ko);
	free(l);
}

/* Run ls_main with stdout sent to a file; returns the output. */
static char *ls_capture(const char *image, int expect_rc)
{
	char *dir = fixture_tmpdir();
	char out[PATH_MAX];
	char *argv[] = { "ls", (char *)image, NULL };
	int saved = dup(STDOUT_FILENO), fd;
	unsigned char *data;
	size_t len;

	snprintf(out, sizeof(out), "%s/out", dir);
	fflush(stdout);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	assert_int_equal(ls_main(2, argv), expect_rc);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	data = fixture_read(out, &len);
	data[len] = '\0';
	fixture_rmrf(dir);
	return (char *)data;
}

/* img written as dir/img (and freed), then listed. */
static char *ls_written(struct image *img, const char *dir, char *path, size_t size)
{
	snprintf(path, size, "%s/img", dir);
	assert_int_equal(image_write(img, path, SINK_GZIP, 0), 0);
	image_free(img);
	return ls_capture(path, 0);
}

static void test_ls(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX], src[PATH_MAX];
	const char conf[] = "modules=generic\ncompress=gzip\n";
	struct image *img = image_new();
	char *out;

	(void)state;
	snprintf(src, sizeof(src), "%s/f", dir);
	fixture_write(src, "data", 4);
	assert_int_equal(image_add_data(img, "/etc/lifeboat/build.conf", conf, strlen(conf), 0), 0);
	assert_int_equal(image_add_data(img, "/lib/modules/6.1/kernel/virtio-blk.ko", "m", 1, 0), 0);
	assert_int_equal(image_add_data(img, "/lib/modules/6.1/kernel/ext4.ko.zst", "m", 1, 0), 0);
	assert_int_equal(image_add_symlink(img, "/bin", "usr/bin"), 0);
	assert_int_equal(image_add_file(img, src, "/a", 0644), 0);
	assert_int_equal(image_add_file(img, src, "/b", 0644), 0);
	out = ls_written(img, dir, p, sizeof(p));
	assert_non_null(strstr(out, "lrwxrwxrwx   1         7 bin -> usr/bin\n"));
	assert_non_null(strstr(out, "-rw-r--r--   2         4 a\n"));
	assert_non_null(strstr(out, "-rw-r--r--   2         0 b => a\n"));
	assert_non_null(strstr(out, "drwxr-xr-x   2         0 lib/modules\n"));
	assert_non_null(strstr(out, "\n/etc/lifeboat/build.conf:\nmodules=generic\ncompress=gzip\n"));
	assert_non_null(strstr(out, "\nmodules:\next4\nvirtio_blk\n"));
	free(out);
	snprintf(p, sizeof(p), "%s/missing", dir);
	free(ls_capture(p, 1));
	free(ls_capture(src, 1));
	fixture_rmrf(dir);
}

/* An image whose build.conf shows a quoted secret (a generator before the
 * redaction on parsed words wrote it so): ls shows it as *, with the note. */
static void test_ls_secrets(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX];
	const char conf[] = "kver = 6.1\ncmdline = root=\"iscsi:u:Pw-9@h::::t\" \"rd.iscsi.password=Pw-8\"\n";
	struct image *img = image_new();
	char *out;

	(void)state;
	assert_int_equal(image_add_data(img, "/etc/lifeboat/build.conf", conf, strlen(conf), 0), 0);
	out = ls_written(img, dir, p, sizeof(p));
	assert_non_null(strstr(out, "\ncmdline = root=\"iscsi:*@h::::t\" \"rd.iscsi.password=*\"\n"));
	assert_non_null(strstr(out, "note: this image carries secrets"));
	assert_null(strstr(out, "Pw-"));
	free(out);
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gnu_newc),
		cmocka_unit_test(test_gnu_crc),
		cmocka_unit_test(test_crc_mismatch),
		cmocka_unit_test(test_concatenated_gzip),
		cmocka_unit_test(test_concatenated_xz),
		cmocka_unit_test(test_concatenated_zstd),
		cmocka_unit_test(test_concatenated_lz4),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupted),
		cmocka_unit_test(test_host_initrd),
		cmocka_unit_test(test_ls),
		cmocka_unit_test(test_ls_secrets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
