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
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clevis/tang.h"
#include "tests/unit/http_server.h"

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

/* The real tangd with its keys in db, answering one connection on the
 * loopback as a socket-activated service does (the connection as its
 * stdin and stdout); its URL, without http://, into url. Returns its pid. */
static inline pid_t tangd_once(const char *db, char *url, size_t size)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	pid_t pid;

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
	assert_int_equal(listen(fd, 1), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY), c;

		/* A test whose assertion failed never calls tangd_end: the
		 * child must not keep the test's output open (a pipe reading
		 * it would wait for ever) nor outlive it. The alarm survives
		 * the exec. */
		dup2(null, 1);
		dup2(null, 2);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		alarm(60);
		c = accept(fd, NULL, NULL);
		dup2(c, 0);
		dup2(c, 1);
		execl(TANGD, TANGD, db, (char *)NULL);
		_exit(127);
	}
	close(fd);
	snprintf(url, size, "127.0.0.1:%d", ntohs(a.sin_port));
	return pid;
}

static inline void tangd_end(pid_t pid)
{
	int wstatus;

	kill(pid, SIGTERM);
	waitpid(pid, &wstatus, 0);
}

/* mr_exchange_fn: tangd_once's server, through the image's HTTP client. */
struct tangd_link {
	const char *db;
	int status;
};

static inline int exchange_tangd(const char *kid, const char *request, char *reply, size_t size, void *ctx)
{
	struct tangd_link *t = ctx;
	char url[64];
	struct tang_server s = { .url = url, .timeout_ms = 10000 };
	pid_t pid = tangd_once(t->db, url, sizeof(url));
	int r = tang_exchange(kid, request, reply, size, &s);

	t->status = s.status;
	tangd_end(pid);
	return r;
}

#endif
