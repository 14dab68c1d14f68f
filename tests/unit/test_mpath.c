/* Unit tests: blockstack/mpath.c's claim rules that need no devices: the
 * wwids file's lines, multipath.conf's hold bound and the mode a boot
 * claims paths in. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockstack/mpath.h"
#include "blockstack/stack_params.h"
#include "bootlib/cmdline.h"
#include "common/layout.h"

/* multipath's own format: a comment header, then "/WWID/" lines. */
static void wwids_lines(void **state)
{
	static const char text[] =
		"# Multipath wwids, Version : 1.0\n"
		"# NOTE: This file is automatically maintained by multipath and multipathd.\n"
		"/35000c500a1b2c3d4/\n"
		"/36001405abcdef000/";

	(void)state;
	assert_true(mpath_wwids_has(text, "35000c500a1b2c3d4"));
	assert_true(mpath_wwids_has(text, "36001405abcdef000"));
	assert_false(mpath_wwids_has(text, "35000c500a1b2c3d"));
	assert_false(mpath_wwids_has(text, "5000c500a1b2c3d4"));
	assert_false(mpath_wwids_has(text, ""));
	assert_false(mpath_wwids_has(NULL, "35000c500a1b2c3d4"));
	assert_false(mpath_wwids_has("#/35000c500a1b2c3d4/\n", "35000c500a1b2c3d4"));
}

/* find_multipaths_timeout: the last one set, its seconds as ms, a
 * negative one's magnitude; none, 0 or no number: -1. */
static void conf_hold(void **state)
{
	(void)state;
	assert_int_equal(mpath_conf_hold_ms("defaults {\n\tfind_multipaths smart\n"
					    "\tfind_multipaths_timeout 3\n}\n"), 3000);
	assert_int_equal(mpath_conf_hold_ms("defaults {\n  find_multipaths_timeout \"-10\" # known\n}"),
			 10000);
	assert_int_equal(mpath_conf_hold_ms("find_multipaths_timeout 2\nfind_multipaths_timeout 7"), 7000);
	assert_int_equal(mpath_conf_hold_ms("find_multipaths_timeout 99999999999999999999"), 3600000);
	assert_int_equal(mpath_conf_hold_ms("defaults {\n\tfind_multipaths yes\n}\n"), -1);
	assert_int_equal(mpath_conf_hold_ms("# find_multipaths_timeout 3\n"), -1);
	assert_int_equal(mpath_conf_hold_ms("find_multipaths_timeout 0\n"), -1);
	assert_int_equal(mpath_conf_hold_ms("find_multipaths_timeout 3s\n"), -1);
	assert_int_equal(mpath_conf_hold_ms("find_multipaths_timeoutx 3\n"), -1);
	assert_int_equal(mpath_conf_hold_ms("find_multipaths_timeout\n3\n"), -1);
	assert_int_equal(mpath_conf_hold_ms(""), -1);
	assert_int_equal(mpath_conf_hold_ms(NULL), -1);
}

static void put(const char *root, const char *rel, const char *text, mode_t mode)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *s = strchr(dir + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

/* No multipath in the image: off whatever is asked. With it: strict when
 * the image lists WWIDs, default when asked, off when told or neither. */
static void modes(void **state)
{
	char root[] = "/tmp/test_mpath.XXXXXX", cmd[64];

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(mpath_mode_for(MPATH_WORD_DEFAULT, root), MPATH_OFF);
	put(root, LAYOUT_MULTIPATH, "#!/bin/sh\n", 0755);
	assert_int_equal(mpath_mode_for(MPATH_WORD_NONE, root), MPATH_OFF);
	assert_int_equal(mpath_mode_for(MPATH_WORD_DEFAULT, root), MPATH_DEFAULT);
	put(root, LAYOUT_MULTIPATH_DIR "/wwids", "# none yet\n", 0644);
	assert_int_equal(mpath_mode_for(MPATH_WORD_NONE, root), MPATH_OFF);
	put(root, LAYOUT_MULTIPATH_DIR "/wwids", "# one\n/35000c500a1b2c3d4/\n", 0644);
	assert_int_equal(mpath_mode_for(MPATH_WORD_NONE, root), MPATH_STRICT);
	assert_int_equal(mpath_mode_for(MPATH_WORD_DEFAULT, root), MPATH_DEFAULT);
	assert_int_equal(mpath_mode_for(MPATH_WORD_OFF, root), MPATH_OFF);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static int parse(const char *line)
{
	struct stack_params p;
	struct cmdline_owner o;

	stack_params_init(&p);
	o = stack_params_cmdline(&p);
	assert_int_equal(cmdline_parse(line, NULL, &o, 1), 0);
	return p.multipath;
}

/* dracut's words and their older spellings. */
static void words(void **state)
{
	(void)state;
	assert_int_equal(parse(""), MPATH_WORD_NONE);
	assert_int_equal(parse("rd.multipath=default"), MPATH_WORD_DEFAULT);
	assert_int_equal(parse("rd.multipath=0"), MPATH_WORD_OFF);
	assert_int_equal(parse("rd.multipath=default rd.multipath=1"), MPATH_WORD_NONE);
	assert_int_equal(parse("nompath"), MPATH_WORD_OFF);
	assert_int_equal(parse("rd_NO_MULTIPATH"), MPATH_WORD_OFF);
	assert_int_equal(parse("multipath=off"), MPATH_WORD_OFF);
	assert_int_equal(parse("rd.multipath=default multipath=on"), MPATH_WORD_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wwids_lines),
		cmocka_unit_test(conf_hold),
		cmocka_unit_test(modes),
		cmocka_unit_test(words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
