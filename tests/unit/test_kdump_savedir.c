/* test_kdump_savedir: the capture saves into a directory of its own, made
 * fresh (0700, files 0600, root's), never into one another user prepared
 * or could change, never through a symlink. The other user is played by
 * files chowned to uid 65534 (the tests need root, and skip without it).
 * The capture saves only the kernel log here: the vmcore takes the same
 * path (save_file). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "kdump/capture.h"
#include "kdump/savedir.h"

#define NAME "myhost-20261205-120000"
#define OTHER 65534

static char last_error[1024];

/* The library's log (bootlib/log.c) writes to /dev/kmsg: these take its
 * place, and keep the last error for the tests to read. */
void log_set_debug(bool on) { (void)on; }
void log_set_prefix(const char *name) { (void)name; }
void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}
void log_warn(const char *fmt, ...) { (void)fmt; }
void log_info(const char *fmt, ...) { (void)fmt; }
void log_debug(const char *fmt, ...) { (void)fmt; }
void log_console(const char *fmt, ...) { (void)fmt; }

static char mnt[64];
static char secret[] = "[ 1.0] secret-key=0123456789abcdef\n";
static struct capture cap;

static const char *at(const char *rel)
{
	static char path[4][400];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s%s", mnt, rel);
	return path[i];
}

static void dir_as(const char *rel, mode_t mode, uid_t uid)
{
	assert_int_equal(mkdir(at(rel), mode), 0);
	assert_int_equal(chmod(at(rel), mode), 0);
	assert_int_equal(lchown(at(rel), uid, uid), 0);
}

static void file_as(const char *rel, mode_t mode, uid_t uid)
{
	int fd = open(at(rel), O_WRONLY | O_CREAT | O_EXCL, mode);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chmod(at(rel), mode), 0);
	assert_int_equal(lchown(at(rel), uid, uid), 0);
}

static off_t size_of(const char *rel)
{
	struct stat st;

	return lstat(at(rel), &st) < 0 ? -1 : st.st_size;
}

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(mnt, sizeof(mnt), "/tmp/test_kdump_savedirXXXXXX");
	assert_non_null(mkdtemp(mnt));
	assert_int_equal(chmod(mnt, 0755), 0);
	dir_as("/var", 0755, 0);
	memset(&cap, 0, sizeof(cap));
	snprintf(cap.name, sizeof(cap.name), "%s", NAME);
	cap.dmesg = secret;
	cap.dmesg_len = strlen(secret);
	last_error[0] = '\0';
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	nftw(mnt, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* The dump's files are root's, 0600, in a directory of root's, 0700. */
static void assert_saved_in(const char *dir)
{
	char rel[200], buf[128] = "";
	struct stat st;
	int fd;

	assert_string_equal(cap.name, dir + strlen("/var/crash/"));
	assert_int_equal(lstat(at(dir), &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	snprintf(rel, sizeof(rel), "%s/vmcore-dmesg.txt", dir);
	assert_int_equal(lstat(at(rel), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	fd = open(at(rel), O_RDONLY);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	assert_string_equal(buf, secret);
}

/* The audit's case: /var/crash is 1777 (apport's); the other user made the
 * dump's directory beforehand, with the file the capture writes first as
 * their own, 0666. The capture makes NAME-1 and leaves theirs alone. */
static void prepared_directory_not_reused(void **state)
{
	(void)state;
	dir_as("/var/crash", 01777, 0);
	dir_as("/var/crash/" NAME, 0755, OTHER);
	file_as("/var/crash/" NAME "/vmcore-dmesg.txt.incomplete", 0666, OTHER);
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash", "test"), 0);
	assert_saved_in("/var/crash/" NAME "-1");
	assert_int_equal(size_of("/var/crash/" NAME "/vmcore-dmesg.txt.incomplete"), 0);
	assert_int_equal(size_of("/var/crash/" NAME "/vmcore-dmesg.txt"), -1);
}

/* A symlink in the dump directory's place is not followed. */
static void symlink_as_dump_directory(void **state)
{
	(void)state;
	dir_as("/var/crash", 01777, 0);
	dir_as("/elsewhere", 0777, OTHER);
	assert_int_equal(symlink(at("/elsewhere"), at("/var/crash/" NAME)), 0);
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash", "test"), 0);
	assert_saved_in("/var/crash/" NAME "-1");
	assert_int_equal(size_of("/elsewhere/vmcore-dmesg.txt"), -1);
	assert_int_equal(size_of("/elsewhere/vmcore-dmesg.txt.incomplete"), -1);
}

/* A symlink on the way to the dump directory is not followed either. */
static void symlink_on_the_way(void **state)
{
	int r;

	(void)state;
	dir_as("/elsewhere", 0755, 0);
	assert_int_equal(symlink(at("/elsewhere"), at("/var/crash")), 0);
	r = savedir_save(&cap, mnt, "/var/crash", "test");
	assert_true(r == -ENOTDIR || r == -ELOOP);
	assert_non_null(strstr(last_error, "/var/crash on test is a symlink"));
	assert_int_equal(size_of("/elsewhere/" NAME), -1);
}

/* Writable by others without the sticky bit: they could swap the dump's
 * directory for theirs between its mkdir and its open. */
static void shared_directory_refused(void **state)
{
	(void)state;
	dir_as("/var/crash", 0777, 0);
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash", "test"), -EPERM);
	assert_non_null(strstr(last_error, "/var/crash on test could be changed by another user "
					   "(owner uid 0, mode 0777)"));
	assert_int_equal(size_of("/var/crash/" NAME), -1);
}

static void others_directory_refused(void **state)
{
	(void)state;
	dir_as("/var/crash", 0755, OTHER);
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash", "test"), -EPERM);
	assert_non_null(strstr(last_error, "(owner uid 65534, mode 0755)"));
	assert_int_equal(size_of("/var/crash/" NAME), -1);
}

/* The mount point is on the way too (an NFS export's top directory). */
static void shared_top_refused(void **state)
{
	(void)state;
	assert_int_equal(chmod(mnt, 0775), 0);
	assert_int_equal(savedir_save(&cap, mnt, "", "test"), -EPERM);
	assert_non_null(strstr(last_error, "/ on test could be changed"));
	assert_int_equal(size_of("/" NAME), -1);
}

static void missing_directories_made(void **state)
{
	struct stat st;

	(void)state;
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash/deep", "test"), 0);
	assert_int_equal(lstat(at("/var/crash"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(lstat(at("/var/crash/deep/" NAME "/vmcore-dmesg.txt"), &st), 0);
	assert_int_equal(savedir_save(&cap, mnt, "", "test"), 0);
	assert_int_equal(lstat(at("/" NAME "/vmcore-dmesg.txt"), &st), 0);
}

static void every_name_taken(void **state)
{
	char rel[200];

	(void)state;
	dir_as("/var/crash", 0755, 0);
	dir_as("/var/crash/" NAME, 0700, 0);
	for (int i = 1; i < 100; i++) {
		snprintf(rel, sizeof(rel), "/var/crash/%s-%d", NAME, i);
		dir_as(rel, 0700, 0);
	}
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash", "test"), -EEXIST);
	assert_int_equal(size_of("/var/crash/" NAME "-100"), -1);
	assert_int_equal(size_of("/var/crash/" NAME "/vmcore-dmesg.txt"), -1);
}

static void names_outside_refused(void **state)
{
	(void)state;
	assert_int_equal(savedir_save(&cap, mnt, "/var/../..", "test"), -EINVAL);
	snprintf(cap.name, sizeof(cap.name), "../x");
	assert_int_equal(savedir_save(&cap, mnt, "/var", "test"), -EINVAL);
	assert_int_equal(size_of("/x"), -1);
}

/* A failed save leaves neither a partial file nor the empty directory. */
static void failure_leaves_nothing(void **state)
{
	(void)state;
	cap.conf.formats = FORMAT_KDUMP;
	cap.bound = UINT64_MAX / 2;          /* more room than any filesystem has */
	dir_as("/var/crash", 0755, 0);
	assert_int_equal(savedir_save(&cap, mnt, "/var/crash", "test"), -ENOSPC);
	assert_int_equal(size_of("/var/crash/" NAME), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(prepared_directory_not_reused, setup, teardown),
		cmocka_unit_test_setup_teardown(symlink_as_dump_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(symlink_on_the_way, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_directory_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(others_directory_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_top_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_directories_made, setup, teardown),
		cmocka_unit_test_setup_teardown(every_name_taken, setup, teardown),
		cmocka_unit_test_setup_teardown(names_outside_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(failure_leaves_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
