/* http: the image's HTTP client, libcurl's multi interface (dlopen()ed,
 * bootlib/curlfn.c): a GET, or a POST of a body, to http:// or https://
 * URLs, each answer bounded, every request of a batch under one deadline.
 * A batch runs its requests side by side and hands back each as it ends,
 * so a caller that needs k answers of n stops at the k-th and abandons
 * the rest (nothing left running: the batch's close ends them).
 *
 * A request succeeds when a 200 came with its whole body; otherwise its
 * why says in words what failed (connection refused, no answer within
 * N s, HTTP 404, ...); the caller, who knows which server this is and
 * what the user can do, reports it once. */
#ifndef LIFEBOAT_BOOTLIB_HTTP_H
#define LIFEBOAT_BOOTLIB_HTTP_H

#include <stddef.h>

#define HTTP_WHY_MAX 256

struct http_req_state;

struct http_req {
	const char *url;             /* http://HOST[:PORT]/PATH (or https://) */
	const char *type;            /* a POST's Content-Type; NULL: a GET */
	const char *body;            /* a POST's body, NUL-terminated */
	char *reply;                 /* the answer's body, NUL-terminated */
	size_t reply_size;           /* its buffer: a longer answer fails (-EMSGSIZE) */
	/* Set once the request has ended: */
	int result;                  /* 0, or -errno (-EINPROGRESS while it runs) */
	int status;                  /* the HTTP status; 0 when none came */
	size_t reply_len;
	char why[HTTP_WHY_MAX];      /* what failed, for the caller's message */
	struct http_req_state *state;   /* the batch's, while it runs */
};

struct http_batch;

/* A batch whose requests all end within timeout_ms from now. Returns 0,
 * -ENOENT when libcurl cannot be loaded or -ENOMEM; why says which. */
int http_batch_open(struct http_batch **out, int timeout_ms, char *why, size_t why_size);
/* Start req (its url, type, body and reply buffer set). Returns 0, or
 * -errno with req->result and req->why set. */
int http_batch_add(struct http_batch *b, struct http_req *req);
/* Wait until one more request has ended and return it (its result, status
 * and why set); NULL once none is left. At the deadline every request
 * still running ends with -ETIMEDOUT, one per call. */
struct http_req *http_batch_next(struct http_batch *b);
/* End the batch; a request still running ends with -ECANCELED. */
void http_batch_close(struct http_batch *b);

/* Run the n requests side by side until enough of them succeeded, all
 * ended or timeout_ms passed. Returns how many succeeded, or -errno when
 * none could start (each request's why says why). */
int http_fetch_many(struct http_req *reqs, size_t n, size_t enough, int timeout_ms);

#endif
