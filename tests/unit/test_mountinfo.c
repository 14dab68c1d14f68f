/* Unit tests: common/mountinfo.c, the one mountinfo reader (the
 * generator's host root, resume's safety check, the way out's unmounts). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/mountinfo.h"

static int parse(const char *line, struct mountinfo_entry *m, char *buf, size_t size)
{
	snprintf(buf, size, "%s", line);
	return mountinfo_parse_line(buf, m);
}

static void fields(void **state)
{
	struct mountinfo_entry m;
	char buf[256];

	(void)state;
	assert_int_equal(parse("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root "
			       "rw,errors=continue\n", &m, buf, sizeof(buf)), 0);
	assert_int_equal(m.major, 98);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.root, "/mnt1");
	assert_string_equal(m.path, "/mnt2");
	assert_string_equal(m.options, "rw,noatime");
	assert_string_equal(m.fstype, "ext3");
	assert_string_equal(m.source, "/dev/root");
	/* No optional fields, no newline; several optional fields. */
	assert_int_equal(parse("22 1 0:21 / /proc rw - proc proc rw", &m, buf, sizeof(buf)), 0);
	assert_string_equal(m.path, "/proc");
	assert_string_equal(m.fstype, "proc");
	assert_int_equal(parse("40 1 0:33 / /sysroot ro master:1 shared:7 propagate_from:2 - "
			       "btrfs /dev/vdb2 ro,ssd", &m, buf, sizeof(buf)), 0);
	assert_string_equal(m.fstype, "btrfs");
	assert_string_equal(m.source, "/dev/vdb2");
}

static void escapes(void **state)
{
	struct mountinfo_entry m;
	char buf[256];

	(void)state;
	assert_int_equal(parse("40 36 0:5 /a\\011b /oldroot/my\\040disk rw - nfs4 srv:/x\\134y rw",
			       &m, buf, sizeof(buf)), 0);
	assert_string_equal(m.root, "/a\tb");
	assert_string_equal(m.path, "/oldroot/my disk");
	assert_string_equal(m.source, "srv:/x\\y");
	/* Not an escape: left as it is. */
	assert_int_equal(parse("1 1 8:1 / /a\\9x\\ rw - ext4 /dev/sda rw", &m, buf, sizeof(buf)), 0);
	assert_string_equal(m.path, "/a\\9x\\");
}

static void malformed(void **state)
{
	static const char *const bad[] = {
		"", "\n", "garbage without separator", "40 36", "1 2 x:y / /a rw - ext4 /dev/sda rw",
		"1 2 8:1x / /a rw - ext4 /dev/sda rw", "40 36 0:5 / /oldroot rw tmpfs tmpfs",
		"40 36 0:5 / /a rw -", "40 36 0:5 / /a rw - tmpfs", "40 36 0:5 / /a rw -  tmpfs x",
		"40 36 0:5 /  /a rw - tmpfs tmpfs rw",
	};
	struct mountinfo_entry m;
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &m, buf, sizeof(buf)), -EINVAL);
}

static void block_or_not(void **state)
{
	static const struct { const char *line; bool block; } cases[] = {
		{ "22 1 0:21 / /proc rw,nosuid - proc proc rw", false },
		{ "23 1 0:5 / /dev rw shared:2 - devtmpfs devtmpfs rw,size=1k", false },
		{ "36 35 254:0 / /sysroot ro,relatime - ext4 /dev/vda ro", true },
		/* btrfs has an anonymous device number: the source tells. */
		{ "40 1 0:33 / /sysroot ro master:1 - btrfs /dev/vdb2 ro,ssd", true },
		{ "41 1 8:1 / /mnt rw - vfat LABEL=x rw", true },
		{ "42 1 0:40 / /run rw - tmpfs tmpfs rw", false },
		{ "43 1 0:41 / /sysroot rw - nfs4 198.51.100.1:/root rw", false },
	};
	struct mountinfo_entry m;
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(cases[i].line, &m, buf, sizeof(buf)), 0);
		assert_int_equal(mountinfo_is_block(&m), cases[i].block);
	}
}

struct seen {
	int lines;
	int stop_at;
	char last_path[2048];
};

static int count(const struct mountinfo_entry *m, void *ctx)
{
	struct seen *s = ctx;

	snprintf(s->last_path, sizeof(s->last_path), "%s", m->path);
	return ++s->lines == s->stop_at ? 7 : 0;
}

/* A text of a proc line, a block line with a mount point of 1500 bytes
 * (longer than any fixed buffer; the kernel allows 4095), garbage and a
 * last line without its newline. */
static char *long_text(void)
{
	char *t = malloc(4096);
	int n;

	assert_non_null(t);
	n = snprintf(t, 4096, "22 1 0:21 / /proc rw - proc proc rw\n37 1 254:2 / /mnt/");
	memset(t + n, 'd', 1500);
	snprintf(t + n + 1500, 4096 - (size_t)n - 1500,
		 " rw,relatime shared:9 - ext4 /dev/vdb1 rw\ngarbage\n38 1 0:3 / /x rw - tmpfs t rw");
	return t;
}

static void walk_text(void **state)
{
	struct seen s = { 0, 0, "" };
	char *t = long_text();

	(void)state;
	assert_int_equal(mountinfo_walk(t, strlen(t), count, &s), 0);
	assert_int_equal(s.lines, 3);
	assert_string_equal(s.last_path, "/x");
	/* The callback's value stops the walk and is returned. */
	s.lines = 0;
	s.stop_at = 2;
	assert_int_equal(mountinfo_walk(t, strlen(t), count, &s), 7);
	assert_int_equal(strlen(s.last_path), 5 + 1500);
	/* len is honoured: the text is not read past it. */
	s.lines = 0;
	s.stop_at = 0;
	assert_int_equal(mountinfo_walk(t, 20, count, &s), 0);
	assert_int_equal(s.lines, 0);
	free(t);
}

static void walk_file(void **state)
{
	char path[] = "/tmp/lifeboat-mountinfo-XXXXXX";
	struct seen s = { 0, 0, "" };
	char *t = long_text();
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t, strlen(t)), (ssize_t)strlen(t));
	close(fd);
	assert_int_equal(mountinfo_walk_file(path, count, &s), 0);
	assert_int_equal(s.lines, 3);
	s.lines = 0;
	s.stop_at = 2;
	assert_int_equal(mountinfo_walk_file(path, count, &s), 7);
	assert_int_equal(strlen(s.last_path), 5 + 1500);
	unlink(path);
	assert_int_equal(mountinfo_walk_file(path, count, &s), -ENOENT);
	/* The real one of this process: "/" is in it. */
	s.lines = 0;
	s.stop_at = 0;
	assert_int_equal(mountinfo_walk_file("/proc/self/mountinfo", count, &s), 0);
	assert_true(s.lines > 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields),
		cmocka_unit_test(escapes),
		cmocka_unit_test(malformed),
		cmocka_unit_test(block_or_not),
		cmocka_unit_test(walk_text),
		cmocka_unit_test(walk_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
