/* Unit tests: the boot timeline parser and its SVG picture. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/cmd/timeline_read.h"
#include "gen/cmd/timeline_svg.h"

static int parse(const char *text, struct timeline *tl, unsigned int *bad)
{
	return timeline_read_parse(text, strlen(text), tl, bad);
}

static void parses_a_recorded_boot(void **state)
{
	static const char text[] = "2.798943 start\n3.254939 modules 11 loaded by coldplug\n"
				   "3.338597 rootdev /dev/vda\n3.890916 mounted /dev/vda ext4\n"
				   "3.894966 exec /sbin/init\n";
	struct timeline tl = { 0 };
	unsigned int bad = 0;

	(void)state;
	assert_int_equal(parse(text, &tl, &bad), 0);
	assert_int_equal(tl.len, 5);
	assert_int_equal(tl.marks[0].usec, 2798943ULL);
	assert_string_equal(tl.marks[0].phase, "start");
	assert_string_equal(tl.marks[0].detail, "");
	assert_string_equal(tl.marks[1].phase, "modules");
	assert_string_equal(tl.marks[1].detail, "11 loaded by coldplug");
	assert_int_equal(tl.marks[4].usec, 3894966ULL);
	assert_string_equal(tl.marks[4].detail, "/sbin/init");
	timeline_read_free(&tl);
}

static void scales_fractions_to_microseconds(void **state)
{
	static const char text[] = "1 a\n1.5 b\n0.000001 c\n2.123456789 d\n";
	struct timeline tl = { 0 };
	unsigned int bad = 0;

	(void)state;
	assert_int_equal(parse(text, &tl, &bad), 0);
	assert_int_equal(tl.len, 4);
	assert_int_equal(tl.marks[0].usec, 1000000ULL);
	assert_int_equal(tl.marks[1].usec, 1500000ULL);
	assert_int_equal(tl.marks[2].usec, 1ULL);
	assert_int_equal(tl.marks[3].usec, 2123456ULL);
	timeline_read_free(&tl);
}

static void accepts_blank_lines_crlf_and_no_final_newline(void **state)
{
	static const char text[] = "\n1.0 start\r\n  \n2.0\texec  /sbin/init  ";
	struct timeline tl = { 0 };
	unsigned int bad = 0;

	(void)state;
	assert_int_equal(parse(text, &tl, &bad), 0);
	assert_int_equal(tl.len, 2);
	assert_string_equal(tl.marks[0].detail, "");
	assert_string_equal(tl.marks[1].phase, "exec");
	assert_string_equal(tl.marks[1].detail, "/sbin/init");
	timeline_read_free(&tl);
}

/* Each bad line and the line number reported for it. */
static void rejects_malformed_lines(void **state)
{
	static const struct { const char *text; unsigned int line; } cases[] = {
		{ "start 1.0\n", 1 },
		{ "1.0 start\n1.0\n", 2 },
		{ "1.0 start\n1. x\n", 2 },
		{ "1.0 start\n.5 x\n", 2 },
		{ "-1.0 x\n", 1 },
		{ "1.0start\n", 1 },
		{ "1.0 st<art\n", 1 },
		{ "1.0 a\n2.0 b\n3.1234567890 c\n", 3 },
		{ "99999999999999999999 x\n", 1 },
		{ "1.0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct timeline tl = { 0 };
		unsigned int bad = 0;

		assert_int_equal(parse(cases[i].text, &tl, &bad), -EINVAL);
		assert_int_equal(bad, cases[i].line);
		timeline_read_free(&tl);
	}
}

static void cuts_long_details(void **state)
{
	char text[600];
	struct timeline tl = { 0 };
	unsigned int bad = 0;

	(void)state;
	memset(text, 'x', sizeof(text));
	memcpy(text, "1.0 p ", 6);
	text[sizeof(text) - 1] = '\0';
	assert_int_equal(parse(text, &tl, &bad), 0);
	assert_int_equal(strlen(tl.marks[0].detail), TIMELINE_DETAIL_MAX - 1);
	timeline_read_free(&tl);
}

static void refuses_endless_files(void **state)
{
	size_t n = (TIMELINE_LINES_MAX + 1) * 4;
	char *text = malloc(n + 1);
	struct timeline tl = { 0 };
	unsigned int bad = 0;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i += 4)
		memcpy(text + i, "1 a\n", 4);
	assert_int_equal(timeline_read_parse(text, n, &tl, &bad), -E2BIG);
	assert_int_equal(bad, TIMELINE_LINES_MAX + 1);
	timeline_read_free(&tl);
	free(text);
}

static void loads_a_file_and_reports_missing(void **state)
{
	char path[] = "/tmp/lifeboat-timeline-XXXXXX";
	int fd = mkstemp(path);
	struct timeline tl = { 0 };
	unsigned int bad = 0;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0.5 start\n0.9 exec /init\n", 25), 25);
	close(fd);
	assert_int_equal(timeline_read_load(path, &tl, &bad), 0);
	assert_int_equal(tl.len, 2);
	assert_int_equal(tl.marks[1].usec, 900000ULL);
	timeline_read_free(&tl);
	unlink(path);
	assert_int_equal(timeline_read_load(path, &tl, &bad), -ENOENT);
}

static char *svg_render(const char *text)
{
	struct timeline tl = { 0 };
	unsigned int bad = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(parse(text, &tl, &bad), 0);
	assert_int_equal(timeline_svg_write(&tl, f), 0);
	fclose(f);
	timeline_read_free(&tl);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* One bar a mark, the first being the kernel's time before the init. */
static void svg_has_a_bar_per_phase(void **state)
{
	char *svg = svg_render("2.0 start\n3.0 modules 4 loaded\n4.0 exec /sbin/init\n");

	(void)state;
	assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_int_equal(count(svg, "<rect x="), 3);
	assert_non_null(strstr(svg, ">kernel (until the init ran)<"));
	assert_non_null(strstr(svg, ">modules (4 loaded)<"));
	assert_non_null(strstr(svg, ">1.000s<"));
	/* 4 s span: ticks every 0.5 s, 0 to 4 inclusive. */
	assert_int_equal(count(svg, "class=\"tick\""), 9);
	assert_non_null(strstr(svg, ">4.0s<"));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
}

/* Text the file holds cannot break the XML. */
static void svg_escapes_details(void **state)
{
	char *svg = svg_render("1.0 start\n2.0 mounted <a&b> \"q\" \x01\xff\n");

	(void)state;
	assert_non_null(strstr(svg, "&lt;a&amp;b&gt; &quot;q&quot; ??"));
	assert_null(strstr(svg, "<a&b>"));
	assert_null(strchr(svg, '\x01'));
	assert_null(strchr(svg, 0xff));
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_a_recorded_boot),
		cmocka_unit_test(scales_fractions_to_microseconds),
		cmocka_unit_test(accepts_blank_lines_crlf_and_no_final_newline),
		cmocka_unit_test(rejects_malformed_lines),
		cmocka_unit_test(cuts_long_details),
		cmocka_unit_test(refuses_endless_files),
		cmocka_unit_test(loads_a_file_and_reports_missing),
		cmocka_unit_test(svg_has_a_bar_per_phase),
		cmocka_unit_test(svg_escapes_details),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
