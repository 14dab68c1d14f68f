/* clevis_fixture: what the clevis unit tests share: running the real
 * tools (tangd-keygen, clevis, cryptsetup) and the real tangd answering
 * a recovery over a socket pair, as a socket-activated service gets its
 * connection. Include it after <cmocka.h>. */
#ifndef LIFEBOAT_TEST_CLEVIS_FIXTURE_H
#define LIFEBOAT_TEST_CLEVIS_FIXTURE_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clevis/http.h"

#define TANGD "/usr/libexec/tangd"

static inline void run_shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void run_shell(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("`%s` failed (tang, clevis and cryptsetup must be installed: make deps)", cmd);
}

static inline size_t read_whole(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	return (size_t)n;
}

/* A tang key database in db (a new directory) and its advertisement in
 * dir/adv.jws, as tangd serves it. */
static inline void tang_keys(const char *dir, const char *db)
{
	run_shell("mkdir %s && /usr/libexec/tangd-keygen %s", db, db);
	run_shell("printf 'GET /adv HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n' | " TANGD " %s 2>/dev/null | "
		  "sed '1,/^\\r$/d' > %s/adv.jws", db, dir);
}

/* mr_exchange_fn: the real tangd on one end of a socket pair, as a
 * socket-activated service gets its connection. */
struct tangd_link {
	const char *db;
	int status;
};

static inline int exchange_tangd(const char *kid, const char *request, char *reply, size_t size, void *ctx)
{
	struct tangd_link *t = ctx;
	struct http_url u;
	char path[256];
	int sv[2], r, wstatus;
	pid_t pid;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(sv[1], 0);
		dup2(sv[1], 1);
		dup2(null, 2);
		execl(TANGD, TANGD, t->db, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	assert_int_equal(http_url_parse("http://198.51.100.1:7500", &u), 0);
	snprintf(path, sizeof(path), "/rec/%s", kid);
	r = http_post_fd(sv[0], &u, path, "application/jwk+json", request, reply, size, 10000,
			 &t->status);
	close(sv[0]);
	waitpid(pid, &wstatus, 0);
	return r;
}

#endif
