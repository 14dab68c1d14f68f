/* Tests for gen/cmd/ls.c on hostile images: names with escape sequences, a
 * symlink whose size field says 2 GiB or 4 GiB, compressed members past the
 * image's unpack budget, and a listing of 160,000 entries whose CPU time
 * grows linearly. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "gen/cmd/ls.h"
#include "tests/unit/image_fixture.h"
#include "tests/unit/newc_fixture.h"

/* The listing of the len bytes at buf; *rc gets ls_buffer's result. */
static char *listing_of(const void *buf, size_t len, int *rc, struct archive_error *why)
{
	char *text = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&text, &n);

	assert_non_null(out);
	*rc = ls_buffer(out, buf, len, why);
	assert_int_equal(fclose(out), 0);
	return text;
}

/* An archive written by fill into a memory buffer. */
static char *archive_made(void (*fill)(FILE *f), size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	fill(f);
	newc_trailer(f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void hostile_fill(FILE *f)
{
	newc_entry(f, "etc/\033[2J\033]0;owned\a", 0100644, 1, 1, "x");
	newc_entry(f, "evil\nlrwxrwxrwx   1         7 bin -> usr/bin", 0100644, 2, 1, "");
	newc_entry(f, "sbin/init", 0120777, 3, 1, "busybox\033[31m\n");
	newc_entry(f, "x\xff\xe2\x80\xae" "fdp.sh", 0100644, 4, 1, "");
	newc_entry(f, "lib/modules/6.1/a\033-b.ko", 0100644, 5, 1, "m");
	newc_entry(f, "etc/lifeboat/build.conf", 0100644, 6, 1, "modules = generic\n\033[8mhidden\r\n");
}

static void test_hostile_names(void **state)
{
	size_t len;
	char *img = archive_made(hostile_fill, &len), *out;
	int rc;

	(void)state;
	out = listing_of(img, len, &rc, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, " 1 etc/\\x1b[2J\\x1b]0;owned\\a\n"));
	assert_non_null(strstr(out, " 0 evil\\nlrwxrwxrwx   1         7 bin -> usr/bin\n"));
	assert_non_null(strstr(out, " sbin/init -> busybox\\x1b[31m\\n\n"));
	assert_non_null(strstr(out, " x\\xff\\xe2\\x80\\xaefdp.sh\n"));
	assert_non_null(strstr(out, "\nmodules:\na\\x1b_b\n"));
	/* build.conf keeps its lines, not what is in them. */
	assert_non_null(strstr(out, ":\nmodules = generic\n\\x1b[8mhidden\\r\n"));
	/* Nothing that acts on a terminal got through; no line was forged. */
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\r'));
	assert_null(strchr(out, '\a'));
	assert_null(strstr(out, "\nlrwxrwxrwx   1         7 bin -> usr/bin"));
	free(out);
	free(img);
}

/* A symlink whose header says size bytes, in a sparse file: the data is
 * holes, as the walk needs the archive to be that long. */
static void huge_symlink_check(unsigned long size)
{
	char *dir = fixture_tmpdir(), p[PATH_MAX], want[128], *out;
	FILE *f;
	void *map;
	struct stat st;
	int rc, fd;

	snprintf(p, sizeof(p), "%s/img", dir);
	f = fopen(p, "w+");
	assert_non_null(f);
	newc_header(f, "bin/sh", 0120777, 1, 1, size);
	fputs("busybox", f);
	assert_int_equal(fseek(f, (long)size - 7, SEEK_CUR), 0);
	newc_pad(f);
	newc_trailer(f);
	assert_int_equal(fclose(f), 0);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0 && fstat(fd, &st) == 0);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(map != MAP_FAILED);
	close(fd);
	out = listing_of(map, (size_t)st.st_size, &rc, NULL);
	assert_int_equal(rc, 0);
	/* The first 4095 bytes of the target, then the note. */
	assert_non_null(strstr(out, " bin/sh -> busybox\\x00\\x00"));
	snprintf(want, sizeof(want), "\\x00 [cut: the target is %lu bytes, longer than any "
		 "symlink the kernel makes]\n", size);
	assert_non_null(strstr(out, want));
	assert_int_equal(strlen(out), strlen("lrwxrwxrwx   1 ") + 10 + strlen(" bin/sh -> busybox") +
			 4 * (4095 - 7) + strlen(want) - strlen("\\x00"));
	free(out);
	munmap(map, (size_t)st.st_size);
	fixture_rmrf(dir);
}

static void test_symlink_2gib(void **state)
{
	(void)state;
	huge_symlink_check(0x80000000UL);
}

static void test_symlink_4gib(void **state)
{
	(void)state;
	huge_symlink_check(0xffffffffUL);
}

/* Eight zstd members, each a cpio of one 16 MiB file of zeros (about 600
 * bytes compressed; the file is a hole, so is quick to make), as dir/img:
 * more than its unpack budget. Its bytes; *raw_len and *member_len get one
 * member's size unpacked and packed. */
static unsigned char *budget_image(const char *dir, size_t *len, size_t *raw_len,
				   size_t *member_len)
{
	char p[PATH_MAX];
	unsigned char *img;
	FILE *f;

	snprintf(p, sizeof(p), "%s/raw", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	newc_header(f, "big", 0100644, 1, 1, 16UL << 20);
	assert_int_equal(fseek(f, 16L << 20, SEEK_CUR), 0);
	newc_trailer(f);
	*raw_len = (size_t)ftell(f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fixture_sh("cd %s && zstd -q -c raw > one && for i in 1 2 3 4 5 6 7 8; do cat one; done > img",
				    dir), 0);
	snprintf(p, sizeof(p), "%s/one", dir);
	free(fixture_read(p, member_len));
	snprintf(p, sizeof(p), "%s/img", dir);
	img = fixture_read(p, len);
	assert_non_null(img);
	assert_int_equal(*len, 8 * *member_len);
	return img;
}

/* The members before the budget is spent are listed, the one that would
 * pass it is named by its offset. */
static void test_budget_many_members(void **state)
{
	char *dir = fixture_tmpdir(), *out, *at;
	unsigned char *img;
	size_t len, raw_len, member_len, fit;
	struct archive_error why;
	int rc, listed = 0;

	(void)state;
	img = budget_image(dir, &len, &raw_len, &member_len);
	fit = archive_unpack_budget(len) / raw_len;
	assert_true(fit >= 1 && fit < 8);
	out = listing_of(img, len, &rc, &why);
	assert_int_equal(rc, -EFBIG);
	assert_string_equal(why.format, "zstd");
	assert_int_equal(why.offset, fit * member_len);
	for (at = out; (at = strstr(at, " 16777216 big\n")); at++)
		listed++;
	assert_int_equal(listed, fit);
	free(out);
	/* One member alone is well within an image's budget. */
	out = listing_of(img, member_len, &rc, &why);
	assert_int_equal(rc, 0);
	free(out);
	free(img);
	fixture_rmrf(dir);
}

static int entry_ignored(const struct archive_entry *e, void *ctx)
{
	(void)e;
	(void)ctx;
	return 0;
}

/* What archive_walk_file of path says on stderr (its result in *rc). */
static char *walk_messages(const char *dir, const char *path, int *rc)
{
	char p[PATH_MAX], *text;
	size_t len;
	int saved = dup(STDERR_FILENO), fd;

	snprintf(p, sizeof(p), "%s/messages", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(saved >= 0 && fd >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	*rc = archive_walk_file(path, entry_ignored, NULL);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	text = (char *)fixture_read(p, &len);
	assert_non_null(text);
	text[len] = '\0';   /* fixture_read leaves room for it */
	return text;
}

/* The refusal suggests a command that names the image as one shell word:
 * pasted, a quote in the file name does not end it and run what follows.
 * A name with bytes a terminal acts on is shown escaped, and the command
 * says IMAGE instead of a name that would not be the file's. */
static void test_budget_command_quoted(void **state)
{
	char *dir = fixture_tmpdir(), img[PATH_MAX], name[PATH_MAX], *msg, *cmd, *end;
	size_t len, raw_len, member_len;
	int rc;

	(void)state;
	free(budget_image(dir, &len, &raw_len, &member_len));
	snprintf(img, sizeof(img), "%s/img", dir);
	snprintf(name, sizeof(name), "%s/x'$(echo INJECTED >&2)'.img", dir);
	assert_int_equal(rename(img, name), 0);
	msg = walk_messages(dir, name, &rc);
	assert_int_equal(rc, -EFBIG);
	cmd = strstr(msg, "list that member with: ");
	assert_non_null(cmd);
	cmd += strlen("list that member with: ");
	end = strchr(cmd, '\n');
	assert_non_null(end);
	snprintf(img, sizeof(img), "%s/cmd.sh", dir);
	fixture_write(img, cmd, (size_t)(end - cmd));
	free(msg);
	assert_int_equal(fixture_sh("cd %s && sh cmd.sh > listed 2> said && grep -q ' big$' listed && "
				    "! grep -q INJECTED said", dir), 0);
	snprintf(img, sizeof(img), "%s/e\033[2J.img", dir);
	assert_int_equal(rename(name, img), 0);
	msg = walk_messages(dir, img, &rc);
	assert_int_equal(rc, -EFBIG);
	assert_null(strchr(msg, '\033'));
	assert_non_null(strstr(msg, "/e\\x1b[2J.img: refusing the zstd member"));
	assert_non_null(strstr(msg, " IMAGE | zstd -dc | cpio -itv (IMAGE: the image named above"));
	free(msg);
	fixture_rmrf(dir);
}

/* An xz member whose header asks for a 1 GiB dictionary: refused before
 * the decoder allocates it. The header is xz's own, for 1 MiB, with the
 * dictionary byte changed and the block header's CRC32 made again. */
static void test_xz_dictionary(void **state)
{
	char *dir = fixture_tmpdir(), p[PATH_MAX], *out;
	unsigned char *img;
	size_t len, hdr_len;
	uint32_t crc;
	struct archive_error why;
	int rc;

	(void)state;
	assert_int_equal(fixture_sh("cd %s && printf hello | xz -q -c --check=crc32 --lzma2=dict=1MiB > x", dir), 0);
	snprintf(p, sizeof(p), "%s/x", dir);
	img = fixture_read(p, &len);
	assert_non_null(img);
	/* Stream header (12 bytes), then the block header: its size, flags,
	 * the LZMA2 filter (0x21), one byte of properties: the dictionary,
	 * 0x10 for 1 MiB, 0x24 for 1 GiB. */
	hdr_len = (img[12] + 1u) * 4;
	assert_int_equal(img[14], 0x21);
	assert_int_equal(img[16], 0x10);
	out = listing_of(img, len, &rc, &why);
	assert_string_equal(why.why, "unexpected data after a cpio archive");
	free(out);
	img[16] = 0x24;
	crc = (uint32_t)crc32(0, img + 12, (uInt)(hdr_len - 4));
	for (int i = 0; i < 4; i++)
		img[12 + hdr_len - 4 + i] = (unsigned char)(crc >> (8 * i));
	out = listing_of(img, len, &rc, &why);
	assert_int_equal(rc, -ENOMEM);
	assert_string_equal(why.why, "compressed member too large to unpack");
	assert_string_equal(why.format, "xz");
	free(out);
	free(img);
	fixture_rmrf(dir);
}

/* many_fill's size: 4 x many_count entries. */
static int many_count = 40000;

/* 2 x many_count names of many_count hard-linked inodes, many_count inodes
 * with nlink 2 whose second name never comes, and many_count modules, half
 * as many names twice. */
static void many_fill(FILE *f)
{
	char name[64];
	unsigned long ino = 1;

	for (int i = 0; i < many_count; i++, ino++) {
		snprintf(name, sizeof(name), "usr/a%05d", i);
		newc_entry(f, name, 0100644, ino, 2, "x");
		snprintf(name, sizeof(name), "usr/b%05d", i);
		newc_entry(f, name, 0100644, ino, 2, "");
	}
	for (int i = 0; i < many_count; i++, ino++) {
		snprintf(name, sizeof(name), "usr/c%05d", i);
		newc_entry(f, name, 0100644, ino, 2, "x");
	}
	for (int i = 0; i < many_count; i++) {
		snprintf(name, sizeof(name), "lib/modules/%d/m%05d.ko", i % 2,
			 many_count / 2 - 1 - i / 2);
		newc_entry(f, name, 0100644, ino++, 1, "m");
	}
}

/* The CPU seconds this process has used: unlike the wall clock, other
 * work on a busy machine does not add to it. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The least CPU time of runs listings of 4 x count entries (the least: a
 * run that shared its core's caches is not the listing's cost); *out
 * keeps the last listing. */
static double listing_cpu(int count, int runs, char **out)
{
	double least = 1e9;
	size_t len;
	char *img;
	int rc;

	many_count = count;
	img = archive_made(many_fill, &len);
	for (int i = 0; i < runs; i++) {
		double start = cpu_seconds(), took;

		free(*out);
		*out = listing_of(img, len, &rc, NULL);
		took = cpu_seconds() - start;
		assert_int_equal(rc, 0);
		least = took < least ? took : least;
	}
	free(img);
	return least;
}

static void test_many_entries(void **state)
{
	char *out = NULL, *mods;
	double small, big;

	(void)state;
	small = listing_cpu(10000, 3, &out);
	big = listing_cpu(40000, 2, &out);
	assert_non_null(strstr(out, " usr/b00000 => usr/a00000\n"));
	assert_non_null(strstr(out, " usr/b39999 => usr/a39999\n"));
	assert_non_null(strstr(out, " usr/c00000\n"));
	assert_null(strstr(out, "usr/c00000 =>"));
	/* Each module once, sorted. */
	mods = strstr(out, "\nmodules:\nm00000\nm00001\n");
	assert_non_null(mods);
	assert_int_equal(strlen(mods), strlen("\nmodules:\n") + 20000 * strlen("m00000\n"));
	/* Four times the entries: a tree lookup each and one sort take about
	 * four times the CPU (0.2 s for 160,000 entries, 0.7 s under ASan);
	 * the old lists, scanned once per entry, took sixteen times (10 s).
	 * CPU time and a ratio, not a wall-clock bound: the same on a slow,
	 * busy or sanitized build. */
	if (big >= 8 * small)
		fail_msg("160,000 entries took %.3f s of CPU, 40,000 took %.3f s: %.1f times, "
			 "not about 4", big, small, big / small);
	free(out);
}

/* The same inode number in two archives of one image is two files. */
static void two_members_fill(FILE *f)
{
	newc_entry(f, "a", 0100644, 7, 2, "x");
	newc_trailer(f);
	newc_entry(f, "b", 0100644, 7, 2, "");
	newc_entry(f, "c", 0100644, 7, 2, "");
}

static void test_links_per_member(void **state)
{
	size_t len;
	char *img = archive_made(two_members_fill, &len), *out;
	int rc;

	(void)state;
	out = listing_of(img, len, &rc, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "         1 a\n"));
	assert_non_null(strstr(out, "         0 b\n"));
	assert_non_null(strstr(out, "         0 c => b\n"));
	free(out);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_symlink_2gib),
		cmocka_unit_test(test_symlink_4gib),
		cmocka_unit_test(test_budget_many_members),
		cmocka_unit_test(test_budget_command_quoted),
		cmocka_unit_test(test_xz_dictionary),
		cmocka_unit_test(test_many_entries),
		cmocka_unit_test(test_links_per_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
