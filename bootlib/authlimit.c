/* authlimit: the rescue password's wrong answers over SSH, counted for
 * the whole boot (one number in /run, under a lock). */
#include "bootlib/authlimit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "bootlib/log.h"

unsigned int authlimit_delay_sec(unsigned int fails)
{
	if (fails == 0)
		return 0;
	/* 2^fails from 2 s, without shifting past the width. */
	return fails >= 6 ? AUTHLIMIT_DELAY_MAX : 1U << fails;
}

int authlimit_parse(const char *text, unsigned int *fails)
{
	unsigned int v = 0;
	size_t i = 0;

	if (text[0] == '\0') {
		*fails = 0;
		return 0;
	}
	for (; text[i] >= '0' && text[i] <= '9'; i++) {
		if (i >= 6)
			return -EINVAL;
		v = v * 10 + (unsigned int)(text[i] - '0');
	}
	if (i == 0 || strcmp(text + i, "\n") != 0)
		return -EINVAL;
	*fails = v;
	return 0;
}

/* Only a file root made for itself counts: anything else could have been
 * put there to reset or inflate the count. */
static int check_owner(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

static int read_count(int fd, unsigned int *fails)
{
	char text[16];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

	if (n < 0)
		return -errno;
	text[n] = '\0';
	if (authlimit_parse(text, fails) < 0)
		*fails = AUTHLIMIT_MAX;
	return 0;
}

int authlimit_lock(const char *path, unsigned int *fails)
{
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	int r;

	if (fd < 0)
		return -errno;
	r = check_owner(fd);
	while (r == 0 && flock(fd, LOCK_EX) < 0)
		if (errno != EINTR)
			r = -errno;
	if (r == 0)
		r = read_count(fd, fails);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int authlimit_record(int fd, unsigned int fails)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u\n", fails);

	if (ftruncate(fd, 0) < 0)
		return -errno;
	if (pwrite(fd, text, (size_t)len, 0) != len)
		return -EIO;
	return 0;
}

/* The boot's limit reached: said to the client, and once to the kernel
 * log, from which an error reaches the console (even with quiet). */
static void limit_said(bool reached_now)
{
	dprintf(2, "lifeboat: %d wrong rescue passwords over SSH in this boot: no password is "
		"taken over SSH until the next boot; use the console\n", AUTHLIMIT_MAX);
	if (reached_now)
		log_error("%d wrong rescue passwords over SSH: no more are taken until the next "
			  "boot", AUTHLIMIT_MAX);
}

static void uncountable(const char *path, int err)
{
	dprintf(2, "lifeboat: %s cannot be used (%s), so the tries cannot be counted and no "
		"password is taken over SSH\n", path, strerror(-err));
}

int authlimit_may_try(const char *path)
{
	unsigned int fails;
	int fd = authlimit_lock(path, &fails);

	if (fd < 0) {
		uncountable(path, fd);
		return -EDQUOT;
	}
	close(fd);
	if (fails < AUTHLIMIT_MAX)
		return 0;
	limit_said(false);
	return -EDQUOT;
}

/* After the fails-th wrong password of the boot: a pause, or the limit. */
static void wrong_said(unsigned int fails)
{
	if (fails >= AUTHLIMIT_MAX) {
		limit_said(true);
		return;
	}
	dprintf(2, "lifeboat: wrong password; the next try in %u s\n", authlimit_delay_sec(fails));
	sleep(authlimit_delay_sec(fails));
}

int authlimit_check(const char *path, const char *hash, const char *password)
{
	unsigned int fails;
	int fd = authlimit_lock(path, &fails), r = -EDQUOT;

	if (fd < 0) {
		uncountable(path, fd);
		return -EDQUOT;
	}
	if (fails >= AUTHLIMIT_MAX)
		limit_said(false);
	else
		r = authlimit_record(fd, fails + 1);
	if (r < 0 && r != -EDQUOT)
		uncountable(path, r);
	if (r == 0)
		r = auth_check(hash, password);
	if (r == 0 || r == -ENOSYS)
		authlimit_record(fd, fails);
	if (r == -EACCES)
		wrong_said(fails + 1);
	close(fd);
	if (r < 0 && r != -EACCES && r != -ENOSYS)
		return -EDQUOT;
	return r == -EACCES && fails + 1 >= AUTHLIMIT_MAX ? -EDQUOT : r;
}
