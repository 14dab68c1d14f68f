/* Unit tests: shutdown/lastreport.c, the last way out's lines as the next
 * boot takes them from pstore records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shutdown/lastreport.h"

/* A ramoops dmesg record as the kernel writes it: a header, then the tail
 * of the kernel log with levels and times. */
static const char record[] =
	"Shutdown#1 Part1\n"
	"<6>[   63.70] lifeboat: starting; the root is on disk\n"
	"<6>[   70.01] lifeboat-shutdown: the way out (reboot): taking the root's stack down\n"
	"<4>[   70.20] lifeboat-shutdown: /oldroot (ext4 on /dev/md0) will not unmount: busy\n"
	"<6>[   70.30] md: md0 stopped.\n"
	"<6>[   70.31] lifeboat-shutdown: the way out is done, 1 of 4 steps not clean; reboot\n"
	"<6>[   70.40] reboot: Restarting system";

static void extract(void **state)
{
	char out[512] = "";

	(void)state;
	assert_int_equal(lastreport_extract(record, strlen(record), out, sizeof(out)), 3);
	assert_string_equal(out,
		"lifeboat-shutdown: the way out (reboot): taking the root's stack down\n"
		"lifeboat-shutdown: /oldroot (ext4 on /dev/md0) will not unmount: busy\n"
		"lifeboat-shutdown: the way out is done, 1 of 4 steps not clean; reboot\n");
	/* Appended to what is there: a second record adds its lines. */
	assert_int_equal(lastreport_extract("x lifeboat-shutdown: more", 25, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "reboot\nlifeboat-shutdown: more\n"));
	/* The boot's own messages ("lifeboat: ") are not the way out's. */
	out[0] = '\0';
	assert_int_equal(lastreport_extract("<6>[1] lifeboat: mounted\n", 25, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

static void extract_bounds(void **state)
{
	static const char text[] = "lifeboat-shutdown: a\nlifeboat-shutdown: bbbbbbbbbb\nlifeboat-shutdown: c\n";
	static const char nul[] = "lifeboat-shutdown: ab\0cd\nlifeboat-shutdown: e";
	char out[40] = "", wide[64] = "";

	(void)state;
	/* The second line does not fit: it and what follows are left out. */
	assert_int_equal(lastreport_extract(text, strlen(text), out, sizeof(out)), 1);
	assert_string_equal(out, "lifeboat-shutdown: a\n");
	/* len is honoured, and a NUL ends a line's text. */
	out[0] = '\0';
	assert_int_equal(lastreport_extract(text, 10, out, sizeof(out)), 0);
	assert_int_equal(lastreport_extract(nul, sizeof(nul) - 1, wide, sizeof(wide)), 2);
	assert_string_equal(wide, "lifeboat-shutdown: ab\nlifeboat-shutdown: e\n");
}

static void last_line(void **state)
{
	char line[64];

	(void)state;
	lastreport_last_line("a\nb\nthe end\n", line, sizeof(line));
	assert_string_equal(line, "the end");
	lastreport_last_line("only", line, sizeof(line));
	assert_string_equal(line, "only");
	lastreport_last_line("", line, sizeof(line));
	assert_string_equal(line, "");
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void collect(void **state)
{
	char dir[] = "/tmp/lifeboat-pstore-XXXXXX", out[300], last[128], *text = NULL;
	struct stat st;
	FILE *f;
	long len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/last-shutdown.txt", dir);
	/* No records: nothing written. */
	assert_int_equal(lastreport_collect(dir, out, last, sizeof(last)), 0);
	assert_int_equal(access(out, F_OK), -1);
	put(dir, "dmesg-ramoops-1", "<6>[1] lifeboat-shutdown: the way out is done, all clean; reboot\n");
	put(dir, "dmesg-ramoops-0", "<6>[0] lifeboat-shutdown: the way out (reboot): taking\n");
	put(dir, "console-ramoops-0", "no lines of the way out\n");
	assert_int_equal(lastreport_collect(dir, out, last, sizeof(last)), 2);
	assert_string_equal(last, "lifeboat-shutdown: the way out is done, all clean; reboot");
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	f = fopen(out, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	/* Records in name order: ramoops's -0 before -1. */
	assert_string_equal(text, "lifeboat-shutdown: the way out (reboot): taking\n"
			    "lifeboat-shutdown: the way out is done, all clean; reboot\n");
	free(text);
	/* A report that cannot be written: -errno. */
	assert_true(lastreport_collect(dir, "/nonexistent-dir/x", last, sizeof(last)) < 0);
	snprintf(out, sizeof(out), "rm -rf '%s'", dir);
	assert_int_equal(system(out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(extract),
		cmocka_unit_test(extract_bounds),
		cmocka_unit_test(last_line),
		cmocka_unit_test(collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
