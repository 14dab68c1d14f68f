/* Unit tests: what the init leaves for the way out's rd.break=shutdown
 * shell (shutdown/leave.c): the hash 0600, the mark only when the hash
 * could be left (audit N3), and the copy that never goes through a link. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "common/fileread.h"
#include "shutdown/leave.h"

#define HASH "$6$salt$0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ\n"

static char dir[64];

static void scratch(void)
{
	snprintf(dir, sizeof(dir), "/tmp/lifeboat-leave-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void scratch_end(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

static void copy_file_mode_and_links(void **state)
{
	char src[96], dst[96], link[96], *text;
	size_t len;

	(void)state;
	scratch();
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(dst, sizeof(dst), "%s/dst", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	put(src, HASH, 0600);
	assert_int_equal(shutdown_leave_copy_file(src, dst, 0600), 0);
	assert_int_equal(mode_of(dst), 0600);
	assert_int_equal(file_read_all(dst, 4096, &text, &len), 0);
	assert_string_equal(text, HASH);
	free(text);
	/* A link in the destination's place is not followed. */
	assert_int_equal(symlink(src, link), 0);
	assert_int_equal(shutdown_leave_copy_file(dst, link, 0644), -ELOOP);
	assert_int_equal(mode_of(src), 0600);
	assert_int_equal(shutdown_leave_copy_file("/nonexistent", dst, 0600), -ENOENT);
	scratch_end();
}

/* The image has a hash: it is left 0600 where the way out's gate reads it
 * (RESCUE_AUTH_PATH under the way out's root), then the mark; no library
 * (the way out links libcrypt). */
static void break_leave_with_hash(void **state)
{
	char auth[96], path[PATH_MAX], *text;
	size_t len;

	(void)state;
	scratch();
	snprintf(auth, sizeof(auth), "%s/image-auth", dir);
	put(auth, HASH, 0600);
	assert_int_equal(shutdown_leave_break(dir, auth), 0);
	snprintf(path, sizeof(path), "%s%s", dir, RESCUE_AUTH_PATH);
	assert_int_equal(mode_of(path), 0600);
	assert_int_equal(file_read_all(path, 4096, &text, &len), 0);
	assert_string_equal(text, HASH);
	free(text);
	snprintf(path, sizeof(path), "%s/etc/lifeboat", dir);
	assert_int_equal(mode_of(path), 0700);
	snprintf(path, sizeof(path), "%s%s", dir, SHUTDOWN_BREAK_MARK);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/bin/sh", dir);
	assert_int_equal(access(path, X_OK), 0);
	scratch_end();
}

/* No hash in the image: the mark alone (the shell opens as the init's). A
 * hash that cannot be copied: no mark, or the way out's gate would find
 * no hash and open the shell to anyone. */
static void break_leave_without_hash(void **state)
{
	char auth[96], path[PATH_MAX];

	(void)state;
	scratch();
	snprintf(auth, sizeof(auth), "%s/no-auth", dir);
	assert_int_equal(shutdown_leave_break(dir, auth), 0);
	snprintf(path, sizeof(path), "%s%s", dir, SHUTDOWN_BREAK_MARK);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s%s", dir, RESCUE_AUTH_PATH);
	assert_int_equal(access(path, F_OK), -1);
	scratch_end();

	scratch();
	snprintf(auth, sizeof(auth), "%s/auth-is-a-directory", dir);
	assert_int_equal(mkdir(auth, 0700), 0);
	assert_true(shutdown_leave_break(dir, auth) < 0);
	snprintf(path, sizeof(path), "%s%s", dir, SHUTDOWN_BREAK_MARK);
	assert_int_equal(access(path, F_OK), -1);
	scratch_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_file_mode_and_links),
		cmocka_unit_test(break_leave_with_hash),
		cmocka_unit_test(break_leave_without_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
