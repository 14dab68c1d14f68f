/* Unit tests: a live image's transfer (net/live/live_fetch.c) through the
 * real libcurl against a server on the loopback that can stop half-way,
 * honour or ignore Range, or have no such file: the file written is the
 * whole image and its hash is the image's, whatever broke on the way. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/layout.h"
#include "net/live/live_fetch.h"
#include "net/live/live_hash.h"
#include "net/live/live_sum.h"

#define BODY_LEN 100000

struct server {
	int fd, port;
	pthread_t thread;
	uint8_t body[BODY_LEN];
	size_t cut_after;            /* the first answer stops after this many bytes; 0: never */
	bool ranges;                 /* Range is honoured (206) */
	bool missing;                /* 404 */
	char ranges_asked[4][64];    /* the Range headers, in order ("" for none) */
	int requests;
};

static void range_of(const char *req, char *out, size_t size, size_t *from)
{
	const char *r = strcasestr(req, "\r\nRange: bytes=");

	*from = 0;
	out[0] = '\0';
	if (!r)
		return;
	*from = strtoul(r + 15, NULL, 10);
	snprintf(out, size, "bytes=%zu-", *from);
}

static void answer(struct server *s, int c, const char *req)
{
	char head[256], range[64];
	size_t from, len;
	int n;

	range_of(req, range, sizeof(range), &from);
	if (s->requests < 4)
		snprintf(s->ranges_asked[s->requests], sizeof(s->ranges_asked[0]), "%s", range);
	s->requests++;
	if (s->missing) {
		n = snprintf(head, sizeof(head), "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
		send(c, head, (size_t)n, MSG_NOSIGNAL);
		return;
	}
	if (!s->ranges || !range[0])
		from = 0;
	len = BODY_LEN - from;
	if (from)
		n = snprintf(head, sizeof(head), "HTTP/1.1 206 Partial Content\r\nContent-Length: %zu\r\n"
			     "Content-Range: bytes %zu-%d/%d\r\n\r\n", len, from, BODY_LEN - 1, BODY_LEN);
	else
		n = snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", BODY_LEN);
	send(c, head, (size_t)n, MSG_NOSIGNAL);
	if (s->cut_after && s->requests == 1)
		len = s->cut_after;   /* the server dies half-way */
	send(c, s->body + from, len, MSG_NOSIGNAL);
}

static void *serve(void *arg)
{
	struct server *s = arg;
	int c;

	while ((c = accept(s->fd, NULL, NULL)) >= 0) {
		char req[4096];
		size_t len = 0;
		ssize_t n;

		while (len < sizeof(req) - 1 && (n = recv(c, req + len, sizeof(req) - 1 - len, 0)) > 0) {
			len += (size_t)n;
			req[len] = '\0';
			if (strstr(req, "\r\n\r\n"))
				break;
		}
		req[len] = '\0';
		answer(s, c, req);
		close(c);
	}
	return NULL;
}

static struct server *server_start(void)
{
	struct server *s = calloc(1, sizeof(*s));
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);

	assert_non_null(s);
	for (size_t i = 0; i < BODY_LEN; i++)
		s->body[i] = (uint8_t)(i * 7 + i / 256);
	s->ranges = true;
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s->fd >= 0);
	assert_int_equal(bind(s->fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(s->fd, 8), 0);
	assert_int_equal(getsockname(s->fd, (struct sockaddr *)&a, &alen), 0);
	s->port = ntohs(a.sin_port);
	assert_int_equal(pthread_create(&s->thread, NULL, serve, s), 0);
	return s;
}

static void server_stop(struct server *s)
{
	shutdown(s->fd, SHUT_RDWR);
	close(s->fd);
	pthread_join(s->thread, NULL);
	free(s);
}

static char path[] = "/tmp/lifeboat-test-live-XXXXXX";

static int fetch(struct server *s, struct live_fetch *f, char *url, size_t size)
{
	snprintf(url, size, "http://127.0.0.1:%d/root.squashfs", s->port);
	f->url = url;
	f->what = "the live image";
	f->path = path;
	f->timeout_sec = 5;
	return live_fetch_run(f);
}

/* The file is the body, and the hash the body's. */
static void assert_whole(const struct server *s, const struct live_fetch *f)
{
	struct live_hash h;
	uint8_t want[SHA256_LEN];
	char why[256], *data;
	size_t len;

	assert_int_equal(f->bytes, BODY_LEN);
	assert_int_equal(file_read_all(path, 2 * BODY_LEN, &data, &len), 0);
	assert_int_equal(len, BODY_LEN);
	assert_memory_equal(data, s->body, BODY_LEN);
	free(data);
	assert_int_equal(live_hash_start(&h, LAYOUT_LIBCRYPTO, why, sizeof(why)), 0);
	live_hash_update(&h, s->body, BODY_LEN);
	assert_int_equal(live_hash_final(&h, want), 0);
	live_hash_free(&h);
	assert_memory_equal(f->sum, want, SHA256_LEN);
}

static void whole_at_once(void **state)
{
	struct server *s = server_start();
	struct live_fetch f = { 0 };
	char url[80];

	(void)state;
	assert_int_equal(fetch(s, &f, url, sizeof(url)), 0);
	assert_whole(s, &f);
	assert_int_equal(s->requests, 1);
	assert_string_equal(s->ranges_asked[0], "");
	server_stop(s);
}

/* The server stops after 30000 bytes: the next request asks for the rest. */
static void resumed_where_it_stopped(void **state)
{
	struct server *s = server_start();
	struct live_fetch f = { 0 };
	char url[80];

	(void)state;
	s->cut_after = 30000;
	assert_int_equal(fetch(s, &f, url, sizeof(url)), 0);
	assert_whole(s, &f);
	assert_int_equal(s->requests, 2);
	assert_string_equal(s->ranges_asked[1], "bytes=30000-");
	server_stop(s);
}

/* A server that cannot resume sends the whole file again: fetched from the start. */
static void restarted_without_ranges(void **state)
{
	struct server *s = server_start();
	struct live_fetch f = { 0 };
	char url[80];

	(void)state;
	s->cut_after = 30000;
	s->ranges = false;
	assert_int_equal(fetch(s, &f, url, sizeof(url)), 0);
	assert_whole(s, &f);
	assert_true(s->requests >= 2);
	server_stop(s);
}

static void missing_and_too_large(void **state)
{
	struct server *s = server_start();
	struct live_fetch f = { 0 };
	char url[80];

	(void)state;
	s->missing = true;
	assert_int_equal(fetch(s, &f, url, sizeof(url)), -ENOENT);
	assert_non_null(strstr(f.why, url));
	assert_non_null(strstr(f.why, "404"));
	assert_int_equal(s->requests, 1);   /* not retried */
	s->missing = false;
	f.max_bytes = 65536;
	assert_int_equal(fetch(s, &f, url, sizeof(url)), -EFBIG);
	server_stop(s);
}

/* Nothing listens: tried again until rd.timeout=, then said. */
static void gone_until_the_timeout(void **state)
{
	struct server *s = server_start();
	struct live_fetch f = { 0 };
	char url[80];

	(void)state;
	shutdown(s->fd, SHUT_RDWR);
	f.timeout_sec = 2;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/root.squashfs", s->port);
	f.url = url, f.what = "the live image", f.path = path;
	assert_int_equal(live_fetch_run(&f), -ETIMEDOUT);
	assert_non_null(strstr(f.why, "rd.timeout=2"));
	assert_non_null(strstr(f.why, url));
	server_stop(s);
}

static int setup(void **state)
{
	int fd = mkstemp(path);

	(void)state;
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_at_once),
		cmocka_unit_test(resumed_where_it_stopped),
		cmocka_unit_test(restarted_without_ranges),
		cmocka_unit_test(missing_and_too_large),
		cmocka_unit_test(gone_until_the_timeout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
