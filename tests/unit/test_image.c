/* Tests for gen/image: GNU cpio extracts what we write, byte-identical output,
 * atomic writes, host paths through symlinks, conflicts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "gen/image/image.h"
#include "tests/unit/image_fixture.h"

#define MTIME 1234567

/* A source tree: a text file, and one file that goes in under three names. */
static void sources_make(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/a.txt", dir);
	fixture_write(p, "alpha\n", 6);
	chmod(p, 0640);
	snprintf(p, sizeof(p), "%s/tool", dir);
	fixture_write(p, "#!/bin/sh\necho tool\n", 20);
	chmod(p, 0755);
}

static struct image *image_sample(const char *dir, bool reverse)
{
	struct image *img = image_new();
	char a[PATH_MAX], tool[PATH_MAX];

	snprintf(a, sizeof(a), "%s/a.txt", dir);
	snprintf(tool, sizeof(tool), "%s/tool", dir);
	assert_non_null(img);
	if (reverse) {
		assert_int_equal(image_add_file(img, tool, "/sbin/three", 0), 0);
		assert_int_equal(image_add_file(img, tool, "/usr/bin/two", 0), 0);
		assert_int_equal(image_add_file(img, tool, "/usr/bin/one", 0), 0);
		assert_int_equal(image_add_node(img, "/dev/console", S_IFCHR | 0600, 5, 1), 0);
		assert_int_equal(image_add_data(img, "/etc/motd", "hi\n", 3, 0644), 0);
		assert_int_equal(image_add_symlink(img, "/bin", "usr/bin"), 0);
		assert_int_equal(image_add_dir(img, "/var/empty", 0700), 0);
		assert_int_equal(image_add_file(img, a, "/etc/a.txt", 0), 0);
	} else {
		assert_int_equal(image_add_file(img, a, "/etc/a.txt", 0), 0);
		assert_int_equal(image_add_dir(img, "/var/empty", 0700), 0);
		assert_int_equal(image_add_symlink(img, "/bin", "usr/bin"), 0);
		assert_int_equal(image_add_data(img, "/etc/motd", "hi\n", 3, 0644), 0);
		assert_int_equal(image_add_node(img, "/dev/console", S_IFCHR | 0600, 5, 1), 0);
		assert_int_equal(image_add_file(img, tool, "/usr/bin/one", 0), 0);
		assert_int_equal(image_add_file(img, tool, "/usr/bin/two", 0), 0);
		assert_int_equal(image_add_file(img, tool, "/sbin/three", 0), 0);
	}
	return img;
}

static void file_expect(const char *root, const char *rel, const char *content, mode_t perm, struct stat *st)
{
	char p[PATH_MAX];
	size_t len;
	unsigned char *data;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(lstat(p, st), 0);
	assert_true(S_ISREG(st->st_mode));
	assert_int_equal(st->st_mode & 07777, perm);
	assert_int_equal(st->st_mtime, MTIME);
	data = fixture_read(p, &len);
	assert_non_null(data);
	assert_int_equal(len, strlen(content));
	assert_memory_equal(data, content, len);
	free(data);
}

/* Write the sample, extract it with GNU cpio, look at every kind of entry. */
static void roundtrip_gnu_cpio(enum image_compress compress)
{
	char *dir = fixture_tmpdir();
	char img_path[PATH_MAX], p[PATH_MAX], target[64];
	struct image *img;
	struct stat st, one, two, three;

	sources_make(dir);
	img = image_sample(dir, false);
	snprintf(img_path, sizeof(img_path), "%s/out.img", dir);
	assert_int_equal(image_write(img, img_path, compress, MTIME), 0);
	image_free(img);
	assert_int_equal(stat(img_path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);

	assert_int_equal(fixture_sh("mkdir %s/x && cd %s/x && %s %s | cpio -idm --no-absolute-filenames --quiet",
				    dir, dir, compress == IMAGE_COMPRESS_GZIP ? "zcat" : "cat", img_path), 0);
	snprintf(p, sizeof(p), "%s/x", dir);
	file_expect(p, "etc/a.txt", "alpha\n", 0640, &st);
	file_expect(p, "etc/motd", "hi\n", 0644, &st);
	file_expect(p, "usr/bin/one", "#!/bin/sh\necho tool\n", 0755, &one);
	file_expect(p, "usr/bin/two", "#!/bin/sh\necho tool\n", 0755, &two);
	file_expect(p, "sbin/three", "#!/bin/sh\necho tool\n", 0755, &three);
	assert_int_equal(one.st_ino, two.st_ino);
	assert_int_equal(one.st_ino, three.st_ino);
	assert_int_equal(one.st_nlink, 3);

	snprintf(p, sizeof(p), "%s/x/var/empty", dir);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	snprintf(p, sizeof(p), "%s/x/var", dir);
	assert_int_equal(lstat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);

	snprintf(p, sizeof(p), "%s/x/bin", dir);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	memset(target, 0, sizeof(target));
	assert_int_equal(readlink(p, target, sizeof(target) - 1), 7);
	assert_string_equal(target, "usr/bin");

	snprintf(p, sizeof(p), "%s/x/dev/console", dir);
	if (geteuid() == 0) {
		assert_int_equal(lstat(p, &st), 0);
		assert_true(S_ISCHR(st.st_mode));
		assert_int_equal(major(st.st_rdev), 5);
		assert_int_equal(minor(st.st_rdev), 1);
	}
	fixture_rmrf(dir);
}

static void test_roundtrip_none(void **state)
{
	(void)state;
	roundtrip_gnu_cpio(IMAGE_COMPRESS_NONE);
}

static void test_roundtrip_gzip(void **state)
{
	(void)state;
	roundtrip_gnu_cpio(IMAGE_COMPRESS_GZIP);
}

/* Our own reader: sorted, uid/gid 0, the data of a hard link on its first name. */
static void test_archive_layout(void **state)
{
	char *dir = fixture_tmpdir();
	char img_path[PATH_MAX];
	struct listing *l = calloc(1, sizeof(*l));
	struct image *img;
	const struct seen *three, *one, *two;

	(void)state;
	sources_make(dir);
	img = image_sample(dir, false);
	snprintf(img_path, sizeof(img_path), "%s/out.img", dir);
	assert_int_equal(image_write(img, img_path, IMAGE_COMPRESS_GZIP, MTIME), 0);
	/* 6 + 3 + 20: the hard-linked file counts once. */
	assert_int_equal(image_content_bytes(img), 29);
	image_free(img);
	assert_int_equal(archive_walk_file(img_path, listing_add, l), 0);
	assert_true(l->len > 8);
	for (size_t i = 0; i < l->len; i++) {
		assert_int_equal(l->items[i].uid, 0);
		assert_int_equal(l->items[i].mtime, MTIME);
		assert_true(l->items[i].path[0] != '/');
		if (i > 0)
			assert_true(strcmp(l->items[i - 1].path, l->items[i].path) < 0);
	}
	three = listing_find(l, "sbin/three");
	one = listing_find(l, "usr/bin/one");
	two = listing_find(l, "usr/bin/two");
	assert_non_null(three);
	assert_non_null(one);
	assert_non_null(two);
	assert_int_equal(three->size, 20);
	assert_int_equal(one->size, 0);
	assert_int_equal(two->size, 0);
	assert_int_equal(three->nlink, 3);
	assert_int_equal(one->ino, three->ino);
	assert_int_equal(two->ino, three->ino);
	assert_true(listing_find(l, "etc/a.txt")->ino != three->ino);
	assert_non_null(listing_find(l, "usr"));
	assert_non_null(listing_find(l, "usr/bin"));
	free(l);
	fixture_rmrf(dir);
}

static unsigned char *image_bytes(const char *dir, bool reverse, time_t mtime, size_t *len)
{
	char img_path[PATH_MAX];
	struct image *img = image_sample(dir, reverse);
	unsigned char *data;

	snprintf(img_path, sizeof(img_path), "%s/%s.img", dir, reverse ? "r" : "f");
	assert_int_equal(image_write(img, img_path, IMAGE_COMPRESS_GZIP, mtime), 0);
	image_free(img);
	data = fixture_read(img_path, len);
	assert_non_null(data);
	return data;
}

static void test_reproducible(void **state)
{
	char *dir = fixture_tmpdir();
	size_t la, lb, lc;
	unsigned char *a, *b, *c;

	(void)state;
	sources_make(dir);
	a = image_bytes(dir, false, MTIME, &la);
	b = image_bytes(dir, true, MTIME, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	/* The timestamp does reach the bytes: a different one differs. */
	c = image_bytes(dir, false, MTIME + 1, &lc);
	assert_true(la != lc || memcmp(a, c, la) != 0);
	free(a);
	free(b);
	free(c);
	fixture_rmrf(dir);
}

static int dir_count(const char *path)
{
	DIR *d = opendir(path);
	const struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void test_write_fails_cleanly(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX], src[PATH_MAX];
	struct image *img = image_new();
	size_t len;
	unsigned char *old;

	(void)state;
	assert_int_equal(image_add_data(img, "/etc/x", "x", 1, 0), 0);
	snprintf(p, sizeof(p), "%s/missing/out.img", dir);
	assert_int_equal(image_write(img, p, IMAGE_COMPRESS_GZIP, 0), -ENOENT);
	assert_int_equal(dir_count(dir), 0);
	/* A parent that is a file. */
	snprintf(p, sizeof(p), "%s/file", dir);
	fixture_write(p, "old", 3);
	snprintf(p, sizeof(p), "%s/file/out.img", dir);
	assert_int_equal(image_write(img, p, IMAGE_COMPRESS_NONE, 0), -ENOTDIR);
	assert_int_equal(dir_count(dir), 1);
	/* A source gone by write time: the old image stays as it was, no temp. */
	snprintf(src, sizeof(src), "%s/src", dir);
	fixture_write(src, "data", 4);
	assert_int_equal(image_add_file(img, src, "/etc/src", 0), 0);
	unlink(src);
	snprintf(p, sizeof(p), "%s/file", dir);
	assert_true(image_write(img, p, IMAGE_COMPRESS_GZIP, 0) < 0);
	assert_int_equal(dir_count(dir), 1);
	old = fixture_read(p, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(old, "old", 3);
	free(old);
	image_free(img);
	fixture_rmrf(dir);
}

/* A full disk: a tiny tmpfs (needs root; skipped without). */
static void test_write_enospc(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX];
	struct image *img = image_new();
	size_t big = 256 * 1024;
	unsigned char *blob = malloc(big);

	(void)state;
	if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") < 0) {
		free(blob);
		image_free(img);
		fixture_rmrf(dir);
		skip();
	}
	for (size_t i = 0; i < big; i++)
		blob[i] = (unsigned char)(i * 7919 >> 3);
	assert_int_equal(image_add_data(img, "/blob", blob, big, 0), 0);
	snprintf(p, sizeof(p), "%s/out.img", dir);
	assert_int_equal(image_write(img, p, IMAGE_COMPRESS_NONE, 0), -ENOSPC);
	assert_int_equal(dir_count(dir), 0);
	umount(dir);
	free(blob);
	image_free(img);
	fixture_rmrf(dir);
}

static void test_conflicts(void **state)
{
	struct image *img = image_new();

	(void)state;
	assert_int_equal(image_add_data(img, "/etc/x", "x", 1, 0), 0);
	assert_int_equal(image_add_data(img, "/etc/x", "x", 1, 0), 0);
	assert_int_equal(image_add_data(img, "/etc/x", "y", 1, 0), -EEXIST);
	assert_int_equal(image_add_symlink(img, "/etc/x", "y"), -EEXIST);
	assert_int_equal(image_add_dir(img, "/etc/x", 0755), -EEXIST);
	assert_int_equal(image_add_data(img, "/etc/x/y", "x", 1, 0), -ENOTDIR);
	assert_int_equal(image_add_dir(img, "/etc", 0700), 0);
	assert_int_equal(image_add_symlink(img, "/etc", "usr/etc"), -EEXIST);
	assert_int_equal(image_add_symlink(img, "/l", "t"), 0);
	assert_int_equal(image_add_symlink(img, "/l", "t"), 0);
	assert_int_equal(image_add_symlink(img, "/l", "u"), -EEXIST);
	assert_int_equal(image_add_node(img, "/dev/null", S_IFCHR | 0666, 1, 3), 0);
	assert_int_equal(image_add_node(img, "/dev/null", S_IFCHR | 0666, 1, 3), 0);
	assert_int_equal(image_add_node(img, "/dev/null", S_IFBLK | 0666, 1, 3), -EEXIST);
	assert_int_equal(image_add_node(img, "/dev/x", S_IFREG | 0666, 1, 3), -EINVAL);
	assert_int_equal(image_add_data(img, "/../x", "x", 1, 0), -EINVAL);
	assert_int_equal(image_add_data(img, "/", "x", 1, 0), -EINVAL);
	assert_true(image_has(img, "/etc/x"));
	assert_true(image_has(img, "//etc/./x"));
	assert_false(image_has(img, "/etc/y"));
	image_free(img);
}

/* A directory implied by files becomes a symlink (merged /usr): its files
 * move to the target, and both paths still reach them. */
static void test_dir_becomes_symlink(void **state)
{
	struct image *img = image_new();

	(void)state;
	assert_int_equal(image_add_data(img, "/lib/modules/6.1/kernel/m.ko", "m", 1, 0), 0);
	assert_int_equal(image_add_symlink(img, "/lib", "usr/lib"), 0);
	assert_true(image_has(img, "/usr/lib/modules/6.1/kernel/m.ko"));
	assert_true(image_has(img, "/lib/modules/6.1/kernel/m.ko"));
	/* Later adds through the link land in the target too. */
	assert_int_equal(image_add_data(img, "/lib/x", "x", 1, 0), 0);
	assert_true(image_has(img, "/usr/lib/x"));
	image_free(img);
}

/* host tree: real/lib/libx.so.1 -> libx.so.1.2, link -> real, abs -> /…/real */
static void test_host_path(void **state)
{
	char *dir = fixture_tmpdir();
	char p[PATH_MAX], img_path[PATH_MAX];
	struct listing *l = calloc(1, sizeof(*l));
	struct image *img = image_new();
	const struct seen *s;

	(void)state;
	assert_int_equal(fixture_sh("cd %s && mkdir -p real/lib && printf lib > real/lib/libx.so.1.2 && "
				    "ln -s libx.so.1.2 real/lib/libx.so.1 && ln -s real link && "
				    "ln -s %s/real abs && ln -s loop2 loop1 && ln -s loop1 loop2", dir, dir), 0);
	snprintf(p, sizeof(p), "%s/link/lib/libx.so.1", dir);
	assert_int_equal(image_add_host_path(img, p), 0);
	assert_int_equal(image_add_host_path(img, p), 0);
	snprintf(p, sizeof(p), "%s/abs/lib/../lib/libx.so.1", dir);
	assert_int_equal(image_add_host_path(img, p), 0);
	snprintf(p, sizeof(p), "%s/loop1/x", dir);
	assert_int_equal(image_add_host_path(img, p), -ELOOP);
	snprintf(p, sizeof(p), "%s/real/lib/libx.so.1.2/x", dir);
	assert_int_equal(image_add_host_path(img, p), -ENOTDIR);
	snprintf(p, sizeof(p), "%s/none", dir);
	assert_int_equal(image_add_host_path(img, p), -ENOENT);
	snprintf(p, sizeof(p), "%s/link/lib/libx.so.1", dir);
	assert_true(image_has(img, p));

	snprintf(img_path, sizeof(img_path), "%s/out.img", dir);
	assert_int_equal(image_write(img, img_path, IMAGE_COMPRESS_NONE, 0), 0);
	image_free(img);
	assert_int_equal(archive_walk_file(img_path, listing_add, l), 0);
	snprintf(p, sizeof(p), "%s/link", dir + 1);
	assert_non_null(s = listing_find(l, p));
	assert_true(S_ISLNK(s->mode));
	assert_string_equal(s->data, "real");
	snprintf(p, sizeof(p), "%s/abs", dir + 1);
	assert_non_null(s = listing_find(l, p));
	assert_true(S_ISLNK(s->mode));
	assert_string_equal(s->data + strlen(s->data) - 5, "/real");
	snprintf(p, sizeof(p), "%s/real/lib/libx.so.1", dir + 1);
	assert_non_null(s = listing_find(l, p));
	assert_string_equal(s->data, "libx.so.1.2");
	snprintf(p, sizeof(p), "%s/real/lib/libx.so.1.2", dir + 1);
	assert_non_null(s = listing_find(l, p));
	assert_true(S_ISREG(s->mode));
	assert_string_equal(s->data, "lib");
	free(l);
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_none),
		cmocka_unit_test(test_roundtrip_gzip),
		cmocka_unit_test(test_archive_layout),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_write_fails_cleanly),
		cmocka_unit_test(test_write_enospc),
		cmocka_unit_test(test_conflicts),
		cmocka_unit_test(test_dir_becomes_symlink),
		cmocka_unit_test(test_host_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
