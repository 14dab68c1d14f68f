/* Unit tests: the image's HTTP client (bootlib/http.c, bootlib/httpreply.c):
 * the answer kept within its buffer, each way a transfer ends said in
 * words, and real requests through libcurl to a server on the loopback
 * (tests/unit/http_server.h): what is sent, chunked and piecemeal
 * answers, statuses, a refused connection, a server that never answers,
 * and a batch that stops at the first answer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bootlib/clock.h"
#include "bootlib/http.h"
#include "bootlib/httpreply.h"
#include "tests/unit/http_server.h"

static const char ok_answer[] = "HTTP/1.1 200 OK\r\nContent-Type: application/jwk+json\r\n"
				"Content-Length: 11\r\n\r\n{\"kty\":\"EC\"";

static void reply_within_buffer(void **state)
{
	char buf[8];
	struct http_req req = { .reply = buf, .reply_size = sizeof(buf) };

	(void)state;
	assert_true(http_reply_take(&req, "abc", 3));
	assert_true(http_reply_take(&req, "", 0));
	assert_string_equal(buf, "abc");
	/* 7 bytes and the NUL fill it; one more does not fit and is not kept. */
	assert_true(http_reply_take(&req, "defg", 4));
	assert_false(http_reply_take(&req, "h", 1));
	assert_int_equal(req.reply_len, 7);
	assert_string_equal(buf, "abcdefg");
	req.reply = NULL;
	assert_false(http_reply_take(&req, "", 0));
}

static struct http_req ended(CURLcode code, long os_errno, long status, bool too_long,
			     const char *detail)
{
	static char buf[16];
	struct http_req req = { .reply = buf, .reply_size = sizeof(buf) };
	struct http_end end = { .code = code, .os_errno = os_errno, .status = status,
				.too_long = too_long, .timeout_ms = 10000, .detail = detail };

	http_reply_end(&req, &end);
	return req;
}

static void ends_in_words(void **state)
{
	struct http_req r;

	(void)state;
	r = ended(CURLE_OK, 0, 200, false, "");
	assert_int_equal(r.result, 0);
	assert_int_equal(r.status, 200);
	r = ended(CURLE_OK, 0, 404, false, "");
	assert_int_equal(r.result, -EPROTO);
	assert_string_equal(r.why, "it answered HTTP 404");
	/* The status says more than the body that did not fit. */
	r = ended(CURLE_WRITE_ERROR, 0, 500, true, "");
	assert_string_equal(r.why, "it answered HTTP 500");
	r = ended(CURLE_WRITE_ERROR, 0, 200, true, "");
	assert_int_equal(r.result, -EMSGSIZE);
	assert_string_equal(r.why, "its answer is longer than 15 bytes");
	r = ended(CURLE_OPERATION_TIMEDOUT, 0, 0, false, "");
	assert_int_equal(r.result, -ETIMEDOUT);
	assert_string_equal(r.why, "no answer within 10 s");
	r = ended(CURLE_COULDNT_CONNECT, ECONNREFUSED, 0, false, "");
	assert_int_equal(r.result, -ECONNREFUSED);
	assert_string_equal(r.why, "connection refused (nothing listens on its port)");
	r = ended(CURLE_COULDNT_CONNECT, EHOSTUNREACH, 0, false, "");
	assert_int_equal(r.result, -EHOSTUNREACH);
	r = ended(CURLE_COULDNT_RESOLVE_HOST, 0, 0, false, "");
	assert_int_equal(r.result, -EHOSTUNREACH);
	assert_non_null(strstr(r.why, "does not resolve"));
	r = ended(CURLE_OK, 0, 0, false, "");
	assert_int_equal(r.result, -EBADMSG);
	/* libcurl's own words may quote the server: escaped. */
	r = ended(CURLE_BAD_CONTENT_ENCODING, 0, 0, false, "bad \x1b[31m\n");
	assert_int_equal(r.result, -EIO);
	assert_string_equal(r.why, "bad \\x1b[31m\\n");
}

static uint64_t fetch(struct http_req *req, int timeout_ms)
{
	uint64_t start = clock_now_ms();

	http_fetch_many(req, 1, 1, timeout_ms);
	return clock_now_ms() - start;
}

/* A POST as Tang's /rec wants it: the method, path, type, body, and the
 * Host header with the port (the old client left the port out). */
static void post_request_and_answer(void **state)
{
	struct http_server *s = *state;
	char url[128], reply[64];
	struct http_req req = { .url = url, .type = "application/jwk+json", .body = "{\"x\":1}",
				.reply = reply, .reply_size = sizeof(reply) };
	char host[64];

	snprintf(url, sizeof(url), "%s/tang/rec/abc", s->url);
	http_server_set(s, ok_answer, strlen(ok_answer), 0, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, 0);
	assert_int_equal(req.status, 200);
	assert_string_equal(reply, "{\"kty\":\"EC\"");
	assert_int_equal(strncmp(s->request, "POST /tang/rec/abc HTTP/1.1\r\n", 29), 0);
	snprintf(host, sizeof(host), "\r\nHost: 127.0.0.1:%d\r\n", s->port);
	assert_non_null(strstr(s->request, host));
	assert_non_null(strstr(s->request, "\r\nContent-Type: application/jwk+json\r\n"));
	assert_null(strcasestr(s->request, "Expect:"));
	assert_non_null(strstr(s->request, "\r\n\r\n{\"x\":1}"));
}

static void get_request(void **state)
{
	struct http_server *s = *state;
	char url[128], reply[64];
	struct http_req req = { .url = url, .reply = reply, .reply_size = sizeof(reply) };

	snprintf(url, sizeof(url), "%s/adv", s->url);
	http_server_set(s, ok_answer, strlen(ok_answer), 0, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, 0);
	assert_int_equal(strncmp(s->request, "GET /adv HTTP/1.1\r\n", 19), 0);
}

/* A chunked answer (a Tang behind a proxy sends one): the body comes
 * without its framing. The old client handed the framing to the JSON
 * parser. */
static void chunked_and_piecemeal(void **state)
{
	static const char chunked[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
				      "5\r\n{\"kty\r\n6\r\n\":\"EC\"\r\n0\r\n\r\n";
	struct http_server *s = *state;
	char reply[64];
	struct http_req req = { .url = s->url, .reply = reply, .reply_size = sizeof(reply) };

	http_server_set(s, chunked, strlen(chunked), 0, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, 0);
	assert_string_equal(reply, "{\"kty\":\"EC\"");
	http_server_set(s, ok_answer, strlen(ok_answer), 1, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, 0);
	assert_string_equal(reply, "{\"kty\":\"EC\"");
}

static void statuses_and_bounds(void **state)
{
	static const char not_found[] = "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found";
	static const char nothing[] = "";
	struct http_server *s = *state;
	char reply[8];
	struct http_req req = { .url = s->url, .reply = reply, .reply_size = sizeof(reply) };

	http_server_set(s, not_found, strlen(not_found), 0, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, -EPROTO);
	assert_int_equal(req.status, 404);
	/* 11 bytes of body for a buffer of 8. */
	http_server_set(s, ok_answer, strlen(ok_answer), 0, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, -EMSGSIZE);
	assert_true(req.reply_len < sizeof(reply));
	http_server_set(s, nothing, 0, 0, false);
	fetch(&req, 5000);
	assert_int_equal(req.result, -EBADMSG);
	assert_string_equal(req.why, "it closed the connection without an answer");
}

/* Refused at once, not at the deadline; a server that takes the request
 * and never answers: the deadline. */
static void refused_and_silent(void **state)
{
	struct http_server *s = *state;
	char url[64], reply[64];
	struct http_req req = { .url = url, .reply = reply, .reply_size = sizeof(reply) };
	uint64_t took;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/adv", http_server_closed_port());
	took = fetch(&req, 5000);
	assert_int_equal(req.result, -ECONNREFUSED);
	assert_true(took < 1000);
	req.url = s->url;
	http_server_set(s, NULL, 0, 0, true);
	took = fetch(&req, 300);
	assert_int_equal(req.result, -ETIMEDOUT);
	assert_string_equal(req.why, "no answer within 300 ms");
	assert_true(took >= 250 && took < 2000);
}

/* Only http:// and https://: a URL of another scheme reaches nothing. */
static void other_schemes(void **state)
{
	char reply[64];
	struct http_req req = { .url = "file:///etc/passwd", .reply = reply, .reply_size = sizeof(reply) };

	(void)state;
	assert_int_equal(http_fetch_many(&req, 1, 1, 1000), -EINVAL);
	assert_int_equal(req.result, -EINVAL);
	assert_string_equal(req.why, "the URL is not http:// or https://");
	req.url = "ftp://127.0.0.1/x";
	assert_int_equal(http_fetch_many(&req, 1, 1, 1000), -EINVAL);
}

/* Three servers at once, one refusing, one silent, one answering: the
 * batch returns with the answer, long before the silent one's deadline;
 * the silent one is abandoned. */
static void batch_first_answer(void **state)
{
	struct http_server *s = *state, silent;
	char refused[64], r[3][64];
	struct http_req reqs[3] = {
		{ .url = refused, .reply = r[0], .reply_size = sizeof(r[0]) },
		{ .reply = r[1], .reply_size = sizeof(r[1]) },
		{ .url = s->url, .reply = r[2], .reply_size = sizeof(r[2]) },
	};
	uint64_t start = clock_now_ms();

	assert_int_equal(http_server_start(&silent), 0);
	http_server_set(&silent, NULL, 0, 0, true);
	http_server_set(s, ok_answer, strlen(ok_answer), 0, false);
	snprintf(refused, sizeof(refused), "http://127.0.0.1:%d/", http_server_closed_port());
	reqs[1].url = silent.url;
	assert_int_equal(http_fetch_many(reqs, 3, 1, 10000), 1);
	assert_true(clock_now_ms() - start < 3000);
	assert_int_equal(reqs[0].result, -ECONNREFUSED);
	assert_int_equal(reqs[1].result, -ECANCELED);
	assert_int_equal(reqs[2].result, 0);
	http_server_stop(&silent);
}

static int server_up(void **state)
{
	static struct http_server s;

	*state = &s;
	return http_server_start(&s);
}

static int server_down(void **state)
{
	http_server_stop(*state);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reply_within_buffer),
		cmocka_unit_test(ends_in_words),
		cmocka_unit_test(post_request_and_answer),
		cmocka_unit_test(get_request),
		cmocka_unit_test(chunked_and_piecemeal),
		cmocka_unit_test(statuses_and_bounds),
		cmocka_unit_test(refused_and_silent),
		cmocka_unit_test(other_schemes),
		cmocka_unit_test(batch_first_answer),
	};

	return cmocka_run_group_tests(tests, server_up, server_down);
}
