/* http: the one request Tang needs, a POST over plain HTTP/1.1 with the
 * connection closed after the answer (Tang's protocol has no TLS: what
 * travels is a blinded key). */
#ifndef LIFEBOAT_HTTP_H
#define LIFEBOAT_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_HOST_MAX 256
#define HTTP_PATH_MAX 512

struct http_url {
	char host[HTTP_HOST_MAX];   /* a name, an IPv4 address, or an IPv6 one without brackets */
	char port[8];
	char path[HTTP_PATH_MAX];   /* without the trailing '/'; "" for the root */
};

/* Parse http://HOST[:PORT][/PATH] (or HOST[:PORT][/PATH]: clevis accepts
 * a URL without scheme). Returns 0, -EINVAL (https: or malformed). */
int http_url_parse(const char *url, struct http_url *out);
/* The status and body of a whole response (headers ignored). Returns the
 * status code, or -EBADMSG when it is not an HTTP response. */
int http_response_body(const char *resp, size_t len, const char **body, size_t *body_len);
/* Whether buf (len bytes) holds a whole response: the headers and the
 * Content-Length bytes of body; without Content-Length only the peer's
 * close ends it. */
bool http_response_complete(const char *buf, size_t len);
/* Send a POST of body to path over fd, read the response until the peer
 * closes, within timeout_ms; the body of a 200 into out (NUL-terminated).
 * Returns 0, -ETIMEDOUT, -EPROTO for another status (*status gets it),
 * -EBADMSG, -ENOSPC or -errno. */
int http_post_fd(int fd, const struct http_url *u, const char *path, const char *type,
		 const char *body, char *out, size_t size, int timeout_ms, int *status);
/* Connect to the URL's server within timeout_ms. Returns the socket or -errno. */
int http_connect(const struct http_url *u, int timeout_ms);

#endif
