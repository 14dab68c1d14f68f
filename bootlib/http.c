/* http: a batch of requests on libcurl's multi interface. */
#include "bootlib/http.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bootlib/clock.h"
#include "bootlib/curlfn.h"
#include "bootlib/httpreply.h"

/* What libcurl needs of a request while it runs. */
struct http_req_state {
	CURL *easy;
	struct curl_slist *headers;
	bool too_long;
	char error[CURL_ERROR_SIZE];
};

struct http_batch {
	struct curlfn fn;
	CURLM *multi;
	uint64_t deadline;
	int timeout_ms;
	struct http_req **live;      /* started and not yet handed back */
	size_t n_live, cap;
};

int http_batch_open(struct http_batch **out, int timeout_ms, char *why, size_t why_size)
{
	struct http_batch *b = calloc(1, sizeof(*b));
	char detail[HTTP_WHY_MAX - 40];
	int r = b ? curlfn_open(&b->fn, detail, sizeof(detail)) : -ENOMEM;

	if (r == 0) {
		b->multi = b->fn.multi_init();
		r = b->multi ? 0 : -ENOMEM;
	}
	if (r < 0) {
		if (r == -ENOENT)
			snprintf(why, why_size, "libcurl cannot be loaded (%s)", detail);
		else
			snprintf(why, why_size, "out of memory");
		free(b);
		return r;
	}
	b->timeout_ms = timeout_ms;
	b->deadline = clock_now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	*out = b;
	return 0;
}

/* libcurl's write callback: the body, within the reply buffer. */
static size_t take_body(char *data, size_t size, size_t n, void *arg)
{
	struct http_req *req = arg;

	if (!http_reply_take(req, data, size * n)) {
		req->state->too_long = true;
		return 0;   /* libcurl ends the transfer (CURLE_WRITE_ERROR) */
	}
	return size * n;
}

/* A POST's headers: its type, and no "Expect: 100-continue", which would
 * have a server that does not answer it cost a second. */
static int post_setup(struct curlfn *fn, struct http_req *req)
{
	char type[160];
	struct curl_slist *h;

	snprintf(type, sizeof(type), "Content-Type: %s", req->type);
	h = fn->slist_append(NULL, type);
	if (h)
		req->state->headers = fn->slist_append(h, "Expect:");
	if (!req->state->headers) {
		fn->slist_free_all(h);
		return -ENOMEM;
	}
	fn->easy_setopt(req->state->easy, CURLOPT_HTTPHEADER, req->state->headers);
	fn->easy_setopt(req->state->easy, CURLOPT_POSTFIELDS, req->body);
	fn->easy_setopt(req->state->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(req->body));
	return 0;
}

static int easy_setup(struct http_batch *b, struct http_req *req, long left_ms)
{
	struct curlfn *fn = &b->fn;
	CURL *c = req->state->easy;

	fn->easy_setopt(c, CURLOPT_URL, req->url);
	fn->easy_setopt(c, CURLOPT_PRIVATE, req);
	fn->easy_setopt(c, CURLOPT_ERRORBUFFER, req->state->error);
	/* HTTP only, whatever libcurl was built with, and no redirect. */
	fn->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	fn->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	/* The environment's proxy is not the image's business. */
	fn->easy_setopt(c, CURLOPT_PROXY, "");
	fn->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	fn->easy_setopt(c, CURLOPT_TIMEOUT_MS, left_ms);
	fn->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, left_ms);
	fn->easy_setopt(c, CURLOPT_WRITEFUNCTION, take_body);
	fn->easy_setopt(c, CURLOPT_WRITEDATA, req);
	return req->type ? post_setup(fn, req) : 0;
}

static void req_release(struct http_batch *b, struct http_req *req)
{
	struct http_req_state *s = req->state;

	for (size_t i = 0; i < b->n_live; i++)
		if (b->live[i] == req) {
			b->live[i] = b->live[--b->n_live];
			break;
		}
	if (s->easy) {
		b->fn.multi_remove_handle(b->multi, s->easy);
		b->fn.easy_cleanup(s->easy);
	}
	b->fn.slist_free_all(s->headers);
	free(s);
	req->state = NULL;
}

static bool url_is_http(const char *url)
{
	return url && (strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0);
}

static int req_start(struct http_batch *b, struct http_req *req)
{
	int64_t left = (int64_t)(b->deadline - clock_now_ms());
	int r;

	if (!url_is_http(req->url)) {
		snprintf(req->why, sizeof(req->why), "the URL is not http:// or https://");
		return -EINVAL;
	}
	if (!req->reply || !req->reply_size || (req->type && !req->body))
		return -EINVAL;
	if (b->n_live == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4;
		struct http_req **live = realloc(b->live, cap * sizeof(*live));

		if (!live)
			return -ENOMEM;
		b->live = live, b->cap = cap;
	}
	req->state = calloc(1, sizeof(*req->state));
	if (!req->state)
		return -ENOMEM;
	b->live[b->n_live++] = req;
	req->state->easy = b->fn.easy_init();
	if (!req->state->easy)
		return -ENOMEM;
	r = easy_setup(b, req, left > 1 ? (long)left : 1L);
	if (r == 0 && b->fn.multi_add_handle(b->multi, req->state->easy) != CURLM_OK)
		r = -ENOMEM;
	return r;
}

int http_batch_add(struct http_batch *b, struct http_req *req)
{
	int r;

	req->result = -EINPROGRESS;
	req->status = 0;
	req->reply_len = 0;
	req->why[0] = '\0';
	if (req->reply && req->reply_size)
		req->reply[0] = '\0';
	req->state = NULL;
	r = req_start(b, req);
	if (r < 0) {
		if (req->state)
			req_release(b, req);
		req->result = r;
		if (!req->why[0])
			snprintf(req->why, sizeof(req->why), "the request cannot be made: %s", strerror(-r));
	}
	return r;
}

/* A transfer libcurl has ended: its result, then its handle freed. */
static struct http_req *req_finish(struct http_batch *b, CURL *easy, CURLcode code)
{
	struct http_end end = { .code = code, .timeout_ms = b->timeout_ms };
	struct http_req *req;
	char *priv = NULL;

	b->fn.easy_getinfo(easy, CURLINFO_PRIVATE, &priv);
	req = (struct http_req *)(void *)priv;
	b->fn.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &end.status);
	b->fn.easy_getinfo(easy, CURLINFO_OS_ERRNO, &end.os_errno);
	end.too_long = req->state->too_long;
	end.detail = req->state->error[0] ? req->state->error : b->fn.easy_strerror(code);
	http_reply_end(req, &end);
	req_release(b, req);
	return req;
}

/* The deadline has passed: one request still running ends. */
static struct http_req *req_expire(struct http_batch *b)
{
	struct http_req *req = b->live[b->n_live - 1];
	struct http_end end = { .code = CURLE_OPERATION_TIMEDOUT, .timeout_ms = b->timeout_ms, .detail = "" };

	http_reply_end(req, &end);
	req_release(b, req);
	return req;
}

struct http_req *http_batch_next(struct http_batch *b)
{
	for (;;) {
		int running, left;
		CURLMsg *msg;
		uint64_t now;

		b->fn.multi_perform(b->multi, &running);
		while ((msg = b->fn.multi_info_read(b->multi, &left)))
			if (msg->msg == CURLMSG_DONE)
				return req_finish(b, msg->easy_handle, msg->data.result);
		if (b->n_live == 0)
			return NULL;
		now = clock_now_ms();
		if (now >= b->deadline)
			return req_expire(b);
		/* libcurl's own timers wake the poll as well (its resolver, its
		 * connects); the bound only keeps the deadline in sight. */
		b->fn.multi_poll(b->multi, NULL, 0, b->deadline - now < 1000 ? (int)(b->deadline - now) : 1000,
				 NULL);
	}
}

void http_batch_close(struct http_batch *b)
{
	if (!b)
		return;
	while (b->n_live) {
		struct http_req *req = b->live[b->n_live - 1];

		req->result = -ECANCELED;
		snprintf(req->why, sizeof(req->why), "not waited for: enough others answered");
		req_release(b, req);
	}
	b->fn.multi_cleanup(b->multi);
	free(b->live);
	free(b);
}

int http_fetch_many(struct http_req *reqs, size_t n, size_t enough, int timeout_ms)
{
	struct http_batch *b;
	struct http_req *done;
	char why[HTTP_WHY_MAX];
	int r = http_batch_open(&b, timeout_ms, why, sizeof(why)), ok = 0, started = 0;

	for (size_t i = 0; r < 0 && i < n; i++) {
		reqs[i].result = r;
		reqs[i].status = 0;
		snprintf(reqs[i].why, sizeof(reqs[i].why), "%s", why);
	}
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (http_batch_add(b, &reqs[i]) == 0)
			started++;
	while ((size_t)ok < enough && (done = http_batch_next(b)))
		ok += done->result == 0;
	http_batch_close(b);
	return started || n == 0 ? ok : reqs[0].result;
}
