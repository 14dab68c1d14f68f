/* http: a minimal HTTP/1.1 client for Tang's /rec exchange. */
#include "clevis/http.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HTTP_RESPONSE_MAX 16384

int http_url_parse(const char *url, struct http_url *out)
{
	const char *host = url, *end, *slash;
	size_t host_len;

	memset(out, 0, sizeof(*out));
	if (strncmp(url, "http://", 7) == 0)
		host = url + 7;
	else if (strstr(url, "://"))
		return -EINVAL;
	slash = strchr(host, '/');
	end = slash ? slash : host + strlen(host);
	if (*host == '[') {
		const char *close = memchr(host, ']', (size_t)(end - host));

		if (!close)
			return -EINVAL;
		host_len = (size_t)(close - host - 1);
		memcpy(out->host, host + 1, host_len < HTTP_HOST_MAX ? host_len : 0);
		host = close + 1;
	} else {
		const char *colon = memchr(host, ':', (size_t)(end - host));

		host_len = (size_t)((colon ? colon : end) - host);
		if (host_len < HTTP_HOST_MAX)
			memcpy(out->host, host, host_len);
		host += host_len;
	}
	if (host_len == 0 || host_len >= HTTP_HOST_MAX)
		return -EINVAL;
	if (*host == ':') {
		size_t plen = (size_t)(end - host - 1);

		if (plen == 0 || plen >= sizeof(out->port) ||
		    strspn(host + 1, "0123456789") < plen)
			return -EINVAL;
		memcpy(out->port, host + 1, plen);
	} else if (host != end) {
		return -EINVAL;
	} else {
		strcpy(out->port, "80");
	}
	if (slash && snprintf(out->path, sizeof(out->path), "%s", slash) >= (int)sizeof(out->path))
		return -EINVAL;
	/* Tang's paths are appended with their own '/'. */
	while (out->path[0] && out->path[strlen(out->path) - 1] == '/')
		out->path[strlen(out->path) - 1] = '\0';
	return strpbrk(out->path, " \r\n") || strpbrk(out->host, " \r\n/") ? -EINVAL : 0;
}

int http_response_body(const char *resp, size_t len, const char **body, size_t *body_len)
{
	const char *head_end = memmem(resp, len, "\r\n\r\n", 4);
	int status;

	if (len < 12 || strncmp(resp, "HTTP/1.", 7) != 0 || !head_end ||
	    resp[8] != ' ' || sscanf(resp + 9, "%3d", &status) != 1 || status < 100)
		return -EBADMSG;
	*body = head_end + 4;
	*body_len = len - (size_t)(*body - resp);
	return status;
}

static long ms_left(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

/* Wait until fd is ready for events or the deadline passes. */
static int wait_fd(int fd, short events, const struct timespec *deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	long left = ms_left(deadline);
	int r;

	if (left <= 0)
		return -ETIMEDOUT;
	r = poll(&p, 1, (int)left);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	return r == 0 ? -ETIMEDOUT : 0;
}

static int send_all(int fd, const char *data, size_t len, const struct timespec *deadline)
{
	while (len) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		int r;

		if (n > 0) {
			data += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		r = wait_fd(fd, POLLOUT, deadline);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Whether buf holds a whole response: its headers and as many body bytes
 * as Content-Length says (tangd keeps the connection open for more). */
bool http_response_complete(const char *buf, size_t len)
{
	const char *end = memmem(buf, len, "\r\n\r\n", 4), *line = buf;

	while (end && line < end) {
		const char *next = memmem(line, (size_t)(end - line), "\r\n", 2);

		if (!next)
			next = end;
		if (next - line > 15 && strncasecmp(line, "Content-Length:", 15) == 0)
			return len - (size_t)(end + 4 - buf) >= strtoul(line + 15, NULL, 10);
		line = next + 2;
	}
	return false;
}

static long recv_all(int fd, char *buf, size_t size, const struct timespec *deadline)
{
	size_t len = 0;

	for (;;) {
		buf[len] = '\0';
		if (http_response_complete(buf, len))
			break;
		ssize_t n = recv(fd, buf + len, size - 1 - len, MSG_DONTWAIT);
		int r;

		if (n == 0)
			break;
		if (n > 0) {
			len += (size_t)n;
			if (len >= size - 1)
				return -ENOSPC;
			continue;
		}
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		r = wait_fd(fd, POLLIN, deadline);
		if (r < 0)
			return r;
	}
	buf[len] = '\0';
	return (long)len;
}

int http_post_fd(int fd, const struct http_url *u, const char *path, const char *type,
		 const char *body, char *out, size_t size, int timeout_ms, int *status)
{
	char req[2048], *resp = malloc(HTTP_RESPONSE_MAX);
	struct timespec deadline;
	const char *rbody;
	size_t rbody_len;
	long n;
	int r;

	*status = 0;
	if (!resp)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
	n = snprintf(req, sizeof(req), "POST %s%s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
		     u->path, path, u->host, type, strlen(body), body);
	r = n >= (long)sizeof(req) ? -ENOSPC : send_all(fd, req, (size_t)n, &deadline);
	n = r < 0 ? r : recv_all(fd, resp, HTTP_RESPONSE_MAX, &deadline);
	r = n < 0 ? (int)n : http_response_body(resp, (size_t)n, &rbody, &rbody_len);
	if (r >= 0) {
		*status = r;
		if (r != 200)
			r = -EPROTO;
		else if (rbody_len >= size)
			r = -ENOSPC;
		else {
			memcpy(out, rbody, rbody_len);
			out[rbody_len] = '\0';
			r = 0;
		}
	}
	free(resp);
	return r;
}

/* One address: a non-blocking connect, waited for until the deadline. */
static int connect_one(const struct addrinfo *ai, const struct timespec *deadline)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			ai->ai_protocol);
	int err = 0, r;
	socklen_t len = sizeof(err);

	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	r = errno == EINPROGRESS ? wait_fd(fd, POLLOUT, deadline) : -errno;
	if (r == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
		return fd;
	close(fd);
	return r < 0 ? r : -(err ? err : EIO);
}

int http_connect(const struct http_url *u, int timeout_ms)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	struct timespec deadline;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
	r = getaddrinfo(u->host, u->port, &hints, &res);
	if (r != 0)
		return r == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	r = -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		r = connect_one(ai, &deadline);
		if (r >= 0 || r == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(res);
	return r;
}
