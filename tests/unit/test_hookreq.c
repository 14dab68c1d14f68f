/* Unit tests: the request lines of a hooks.d executable
 * (gen/host/hookreq.c): each request with its arguments, what is ignored,
 * and each malformed line refused with its number and why. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "gen/host/hookreq.h"

static int parse(const char *text, struct hookreq_list *l, char *err, size_t size)
{
	return hookreq_parse(text, strlen(text), "/etc/lifeboat/hooks.d/10-test", l, err, size);
}

static void every_request(void **state)
{
	struct hookreq_list l = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(parse("# what the test needs\n\n"
			       "file /etc/hostname\n"
			       "file\t/etc/hosts   /etc/hosts.image\n"
			       "  program /usr/bin/stat\n"
			       "module dm_mod\n"
			       "cmdline  rd.foo=1 \t quiet  \"a=b  c\"\n"
			       "script initqueue/settled /usr/share/x/50-wait.sh\n"
			       "module pci:v00008086d*", &l, err, sizeof(err)), 0);
	assert_int_equal(l.len, 7);
	assert_int_equal(l.items[0].kind, HOOKREQ_FILE);
	assert_string_equal(l.items[0].arg, "/etc/hostname");
	assert_null(l.items[0].dest);
	assert_int_equal(l.items[0].line, 3);
	assert_string_equal(l.items[1].dest, "/etc/hosts.image");
	assert_int_equal(l.items[2].kind, HOOKREQ_PROGRAM);
	assert_string_equal(l.items[2].arg, "/usr/bin/stat");
	assert_int_equal(l.items[3].kind, HOOKREQ_MODULE);
	assert_string_equal(l.items[3].arg, "dm_mod");
	assert_int_equal(l.items[4].kind, HOOKREQ_CMDLINE);
	assert_string_equal(l.items[4].arg, "rd.foo=1 quiet \"a=b c\"");
	assert_int_equal(l.items[5].kind, HOOKREQ_SCRIPT);
	assert_string_equal(l.items[5].stage, "initqueue/settled");
	assert_string_equal(l.items[5].arg, "/usr/share/x/50-wait.sh");
	assert_string_equal(l.items[5].hook, "/etc/lifeboat/hooks.d/10-test");
	assert_string_equal(l.items[6].arg, "pci:v00008086d*");
	assert_int_equal(l.items[6].line, 9);
	assert_string_equal(hookreq_kind_name(HOOKREQ_SCRIPT), "script");
	hookreq_list_free(&l);
	assert_int_equal(l.len, 0);
}

/* What a bridge to another system's hooks needs: a program placed where
 * that system's hook put it, symlinks and empty directories. */
static void placed_requests(void **state)
{
	struct hookreq_list l = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(parse("program /usr/sbin/sfdisk /sbin/sfdisk\n"
			       "symlink ../lib/x/run /usr/bin/run\n"
			       "dir /var/lib/frob\n", &l, err, sizeof(err)), 0);
	assert_int_equal(l.len, 3);
	assert_int_equal(l.items[0].kind, HOOKREQ_PROGRAM);
	assert_string_equal(l.items[0].arg, "/usr/sbin/sfdisk");
	assert_string_equal(l.items[0].dest, "/sbin/sfdisk");
	assert_int_equal(l.items[1].kind, HOOKREQ_SYMLINK);
	assert_string_equal(l.items[1].arg, "../lib/x/run");
	assert_string_equal(l.items[1].dest, "/usr/bin/run");
	assert_int_equal(l.items[2].kind, HOOKREQ_DIR);
	assert_string_equal(l.items[2].arg, "/var/lib/frob");
	assert_null(l.items[2].dest);
	assert_string_equal(hookreq_kind_name(HOOKREQ_SYMLINK), "symlink");
	hookreq_list_free(&l);
}

/* text must be refused, the error starting with want. */
static void refused(const char *text, const char *want)
{
	struct hookreq_list l = { 0 };
	char err[512];

	assert_int_equal(parse(text, &l, err, sizeof(err)), -EINVAL);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("'%s': got '%s', wanted '%s...'", text, err, want);
	hookreq_list_free(&l);
}

static void malformed_lines(void **state)
{
	(void)state;
	refused("copy /etc/x\n", "line 1: unknown request 'copy'");
	refused("file\n", "line 1: 'file' needs SRC [DEST]");
	refused("file /a /b /c\n", "line 1: 'file' needs SRC [DEST]");
	refused("program\n", "line 1: 'program' needs PATH [DEST]");
	refused("program /a /b /c\n", "line 1: 'program' needs PATH [DEST]");
	refused("program /a b\n", "line 1: DEST 'b' is not");
	refused("symlink x\n", "line 1: 'symlink' needs TARGET PATH");
	refused("symlink x y\n", "line 1: PATH 'y' is not");
	refused("dir\n", "line 1: 'dir' needs PATH");
	refused("dir /a/../b\n", "line 1: PATH");
	refused("module a b\n", "line 1: 'module' needs NAME");
	refused("cmdline\n", "line 1: 'cmdline' needs WORDS...");
	refused("cmdline   \n", "line 1: 'cmdline' needs WORDS...");
	refused("script pre-mount\n", "line 1: 'script' needs STAGE PATH");
	refused("script pre-mount /a /b\n", "line 1: 'script' needs STAGE PATH");
	refused("script shutdown /a\n", "line 1: 'shutdown' is no stage");
	refused("script initqueue/online /a\n", "line 1: 'initqueue/online' is no stage");
	refused("file relative\n", "line 1: SRC 'relative' is not an absolute path");
	refused("file /\n", "line 1: SRC '/' is not an absolute path");
	refused("file /etc/../shadow\n", "line 1: SRC '/etc/../shadow' is not");
	refused("file /etc/./x\n", "line 1: SRC");
	refused("file /etc//x\n", "line 1: SRC");
	refused("file /etc/x/\n", "line 1: SRC");
	refused("file /etc/x ../y\n", "line 1: DEST '../y' is not");
	refused("file /etc/x /y/..\n", "line 1: DEST");
	refused("program /usr/bin/..\n", "line 1: PATH");
	refused("script cleanup x\n", "line 1: PATH 'x'");
	refused("module a/b\n", "line 1: module name 'a/b'");
	refused("cmdline a=\"b\n", "line 1: the cmdline request's double quotes do not pair");
	refused("module x\nfile /a\rb\n", "line 2: holds a control character (byte 8)");
	refused("module x\n\nmodule a\033b\n", "line 3: holds a control character");
	refused("module x\x7f\n", "line 1: holds a control character");
}

/* A NUL, a line too long, a name too long: each refused, nothing read past. */
static void bounds(void **state)
{
	static char big[HOOKREQ_LINE_MAX + 16];
	struct hookreq_list l = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(hookreq_parse("module a\0b\n", 11, "h", &l, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 1: holds a control character (byte 9)");
	hookreq_list_free(&l);
	memset(big, 'x', sizeof(big) - 1);
	memcpy(big, "module ", 7);
	assert_int_equal(parse(big, &l, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 1: is longer than 4096 bytes");
	big[7 + HOOKREQ_NAME_MAX] = '\0';
	assert_int_equal(parse(big, &l, err, sizeof(err)), 0);
	big[7 + HOOKREQ_NAME_MAX] = 'x';
	big[8 + HOOKREQ_NAME_MAX] = '\0';
	assert_int_equal(parse(big, &l, err, sizeof(err)), -EINVAL);
	hookreq_list_free(&l);
	/* Not NUL-terminated: only len bytes are read. */
	assert_int_equal(hookreq_parse("module abcdef", 8, "h", &l, err, sizeof(err)), 0);
	assert_string_equal(l.items[0].arg, "a");
	hookreq_list_free(&l);
}

/* The requests before a bad line stay; a cmdline request's words are not
 * in the error (they may hold a secret). */
static void partial_and_no_secret(void **state)
{
	struct hookreq_list l = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(parse("module a\ncmdline rd.iscsi.password=\"s3cret\n", &l, err,
			       sizeof(err)), -EINVAL);
	assert_int_equal(l.len, 1);
	assert_null(strstr(err, "s3cret"));
	hookreq_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_request),
		cmocka_unit_test(placed_requests),
		cmocka_unit_test(malformed_lines),
		cmocka_unit_test(bounds),
		cmocka_unit_test(partial_and_no_secret),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
