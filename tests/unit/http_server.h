/* http_server: a server on the loopback for the HTTP client's tests and
 * fuzz target (bootlib/http.c): a thread that takes each connection, reads
 * the request (its headers and Content-Length bytes of body), keeps it for
 * the test to look at, and sends the canned answer in pieces of the size
 * given, then closes its side; or, silent, holds the connection and never
 * answers. Free of cmocka: the fuzz target includes it too. */
#ifndef LIFEBOAT_TEST_HTTP_SERVER_H
#define LIFEBOAT_TEST_HTTP_SERVER_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct http_server {
	int fd;                      /* listening, on 127.0.0.1 */
	int port;
	char url[64];                /* http://127.0.0.1:PORT */
	pthread_t thread;
	pthread_mutex_t lock;
	char *answer;                /* a copy: the caller's may be gone while it is sent */
	size_t answer_len, piece;
	bool silent;
	char request[8192];          /* the last request, NUL-terminated */
	int connections;
};

/* A TCP port on the loopback that nothing listens on. */
static inline int http_server_closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port;

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0)
		abort();
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* Read the request: its headers, then as many body bytes as it says. */
static inline size_t http_server_read(int c, char *buf, size_t size)
{
	size_t len = 0;
	const char *end = NULL;

	while (len < size - 1) {
		ssize_t n = recv(c, buf + len, size - 1 - len, 0);

		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		end = strstr(buf, "\r\n\r\n");
		if (end) {
			const char *cl = strcasestr(buf, "\r\nContent-Length:");
			size_t want = cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0;

			if (len >= (size_t)(end + 4 - buf) + want)
				break;
		}
	}
	buf[len] = '\0';
	return len;
}

static inline void http_server_serve(struct http_server *s, int c)
{
	char req[sizeof(s->request)], drain[512];
	int one = 1;

	http_server_read(c, req, sizeof(req));
	pthread_mutex_lock(&s->lock);
	memcpy(s->request, req, sizeof(req));
	s->connections++;
	/* Each piece its own segment, as a slow server's would come. */
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (size_t at = 0; !s->silent && at < s->answer_len; at += s->piece) {
		size_t n = s->answer_len - at < s->piece ? s->answer_len - at : s->piece;

		if (send(c, s->answer + at, n, MSG_NOSIGNAL) != (ssize_t)n)
			break;
	}
	pthread_mutex_unlock(&s->lock);
	if (!s->silent)
		shutdown(c, SHUT_WR);
	/* Until the client closes: a close with its bytes unread would reset
	 * the connection under the answer. */
	while (recv(c, drain, sizeof(drain), 0) > 0)
		;
	close(c);
}

static inline void *http_server_loop(void *arg)
{
	struct http_server *s = arg;
	int c;

	while ((c = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		http_server_serve(s, c);
	return NULL;
}

/* Start the server. Returns 0 or -1. */
static inline int http_server_start(struct http_server *s)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);

	memset(s, 0, sizeof(*s));
	s->piece = 1 << 20;
	pthread_mutex_init(&s->lock, NULL);
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || bind(s->fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(s->fd, (struct sockaddr *)&a, &len) < 0 || listen(s->fd, 16) < 0)
		return -1;
	s->port = ntohs(a.sin_port);
	snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d", s->port);
	return pthread_create(&s->thread, NULL, http_server_loop, s) == 0 ? 0 : -1;
}

/* What the next connections get: len bytes of answer in pieces of piece
 * bytes (0: at once); silent: nothing, the connection held. */
static inline void http_server_set(struct http_server *s, const void *answer, size_t len,
				   size_t piece, bool silent)
{
	pthread_mutex_lock(&s->lock);
	free(s->answer);
	s->answer = malloc(len + 1);
	if (!s->answer)
		abort();
	if (len)
		memcpy(s->answer, answer, len);
	s->answer_len = len;
	s->piece = piece ? piece : len + 1;
	s->silent = silent;
	pthread_mutex_unlock(&s->lock);
}

static inline void http_server_stop(struct http_server *s)
{
	/* Wakes the accept() with an error: the loop ends. */
	shutdown(s->fd, SHUT_RDWR);
	pthread_join(s->thread, NULL);
	close(s->fd);
	free(s->answer);
	pthread_mutex_destroy(&s->lock);
}

#endif
