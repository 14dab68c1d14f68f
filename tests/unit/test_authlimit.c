/* Unit tests: bootlib/authlimit.c, the rescue password's wrong answers
 * over SSH counted for the whole boot (audit N9), and the SSH login's
 * gate (bootlib/shell.c shell_enter_remote) under that count, played in a
 * mount namespace with a /run and /etc/lifeboat of its own as the audit's
 * reproducer did: a new login no longer gets three fresh tries. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "bootlib/authlimit.h"
#include "bootlib/shell.h"

/* openssl passwd -6 -salt lifeboat right-password */
#define HASH "$6$lifeboat$OYP1X3e8rTm1kK4fhqFFwsXpsj0Od6x223zaf6cVqtvGybNXgbmZQaP." \
	     "wAkFCyimvNYgwsrIqqX0YrDo5sZRW."

static void delays_grow(void **state)
{
	static const unsigned int want[] = { 0, 2, 4, 8, 16, 32, 60, 60 };

	(void)state;
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(authlimit_delay_sec(i), want[i]);
	assert_int_equal(authlimit_delay_sec(1000), AUTHLIMIT_DELAY_MAX);
	assert_int_equal(authlimit_delay_sec(~0U), AUTHLIMIT_DELAY_MAX);
}

static void count_text(void **state)
{
	static const char *const bad[] = { "7", "x\n", "-1\n", "1234567\n", "7\n8\n", "\n", " 7\n" };
	unsigned int fails = 99;

	(void)state;
	assert_int_equal(authlimit_parse("", &fails), 0);
	assert_int_equal(fails, 0);
	assert_int_equal(authlimit_parse("7\n", &fails), 0);
	assert_int_equal(fails, 7);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(authlimit_parse(bad[i], &fails), -EINVAL);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

static void read_text(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, out, size - 1);
	assert_true(n >= 0);
	out[n] = '\0';
	close(fd);
}

/* The count's file: made 0600, kept, refused when anyone else could have
 * written it, counted as the limit when it makes no sense. */
static void count_file(void **state)
{
	char dir[] = "/tmp/lifeboat-authlimit-XXXXXX", path[128], link[128], text[16];
	unsigned int fails = 99;
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/auth.fails", dir);
	fd = authlimit_lock(path, &fails);
	assert_true(fd >= 0);
	assert_int_equal(fails, 0);
	assert_int_equal(authlimit_record(fd, 3), 0);
	close(fd);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	read_text(path, text, sizeof(text));
	assert_string_equal(text, "3\n");
	fd = authlimit_lock(path, &fails);
	assert_int_equal(fails, 3);
	close(fd);
	write_file(path, "junk", 0600);
	fd = authlimit_lock(path, &fails);
	assert_int_equal(fails, AUTHLIMIT_MAX);
	close(fd);
	write_file(path, "0\n", 0644);
	assert_int_equal(authlimit_lock(path, &fails), -EPERM);
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(authlimit_lock(link, &fails), -ELOOP);
	unlink(link);
	unlink(path);
	rmdir(dir);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A wrong answer costs its pause and counts; a right one leaves the
 * count; the last wrong one of the boot ends the tries, the right
 * password included. */
static void check_counts(void **state)
{
	char dir[] = "/tmp/lifeboat-authlimit-XXXXXX", path[128], text[16];
	double t0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/auth.fails", dir);
	assert_int_equal(authlimit_may_try(path), 0);
	t0 = now();
	assert_int_equal(authlimit_check(path, HASH, "guess"), -EACCES);
	assert_true(now() - t0 >= 2.0);
	read_text(path, text, sizeof(text));
	assert_string_equal(text, "1\n");
	assert_int_equal(authlimit_check(path, HASH, "right-password"), 0);
	read_text(path, text, sizeof(text));
	assert_string_equal(text, "1\n");
	write_file(path, "9\n", 0600);
	t0 = now();
	assert_int_equal(authlimit_check(path, HASH, "guess"), -EDQUOT);
	assert_true(now() - t0 < 2.0);
	read_text(path, text, sizeof(text));
	assert_string_equal(text, "10\n");
	assert_int_equal(authlimit_may_try(path), -EDQUOT);
	assert_int_equal(authlimit_check(path, HASH, "right-password"), -EDQUOT);
	unlink(path);
	rmdir(dir);
}

/* In the child, in a mount namespace of its own: /etc (the loader's cache
 * kept) and /run as tmpfs, the image's password hash and the published
 * gate (a failure: the rescue is open) in them, fails wrong answers
 * counted already. Returns 0 or 77 when namespaces are not allowed. */
static int fake_image(const char *fails)
{
	char cache[1 << 16];
	int fd = open("/etc/ld.so.cache", O_RDONLY), null;
	ssize_t n = fd >= 0 ? read(fd, cache, sizeof(cache)) : 0;

	if (fd >= 0)
		close(fd);
	/* libcrypt, loaded once while /etc is the host's. */
	auth_check(HASH, "x");
	if (unshare(CLONE_NEWNS | (geteuid() == 0 ? 0 : CLONE_NEWUSER)) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("none", "/etc", "tmpfs", 0, "mode=0755") < 0 ||
	    mount("none", "/run", "tmpfs", 0, "mode=0755") < 0)
		return 77;
	null = open("/dev/null", O_WRONLY);
	mount("/dev/null", "/dev/kmsg", NULL, MS_BIND, NULL);
	fd = open("/etc/ld.so.cache", O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || n < 0 || write(fd, cache, (size_t)n) != n)
		return 1;
	close(fd);
	if (mkdir("/etc/lifeboat", 0700) < 0 || mkdir("/run/lifeboat", 0700) < 0)
		return 1;
	write_file("/etc/lifeboat/rescue-auth", HASH "\n", 0600);
	write_file("/run/lifeboat/shell.state", "shell=1 cause=failure pid=0\n", 0600);
	if (fails)
		write_file("/run/lifeboat/auth.fails", fails, 0600);
	close(null);
	return 0;
}

/* One SSH login typing typed; its stderr into /run/said. */
static int login(const char *typed)
{
	enum shell_cause cause;
	int p[2], said = open("/run/said", O_WRONLY | O_CREAT | O_APPEND, 0600);

	if (said < 0 || pipe(p) < 0)
		return -1;
	if (write(p[1], typed, strlen(typed)) != (ssize_t)strlen(typed))
		return -1;
	close(p[1]);
	dup2(p[0], 0);
	close(p[0]);
	dup2(said, 2);
	close(said);
	return shell_enter_remote("true", &cause);
}

/* fails counted already, then one login typing typed: its result. */
static int login_after(const char *fails, const char *typed)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		int r = fake_image(fails);

		if (r != 0)
			_exit(r);
		r = login(typed);
		_exit(r == 0 ? 0 : r == -EACCES ? 13 : 2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	return WEXITSTATUS(status);
}

/* The audit's reproducer gave each login three fresh, unpaused tries and
 * the right password at the sixth login opened the shell. Now what the
 * earlier logins of the boot used up is gone for the next one. */
static void ssh_login_under_the_count(void **state)
{
	(void)state;
	assert_int_equal(login_after(NULL, "right-password\n"), 0);
	assert_int_equal(login_after("10\n", "right-password\n"), 13);
	/* The tenth wrong one ends this login's tries too. */
	assert_int_equal(login_after("9\n", "guess\nright-password\n"), 13);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delays_grow),
		cmocka_unit_test(count_text),
		cmocka_unit_test(count_file),
		cmocka_unit_test(check_counts),
		cmocka_unit_test(ssh_login_under_the_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
