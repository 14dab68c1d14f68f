/* httpreply: what the image's HTTP client makes of what comes back, apart
 * from libcurl so that it is tested and fuzzed alone: the answer's body
 * kept within its buffer, and the end of a transfer (libcurl's code, the
 * socket's errno, the status) said as -errno and words. */
#ifndef LIFEBOAT_BOOTLIB_HTTPREPLY_H
#define LIFEBOAT_BOOTLIB_HTTPREPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>

#include "bootlib/http.h"

/* Append len bytes of the body to req->reply, kept NUL-terminated.
 * Returns false (and appends nothing) when they do not fit. */
bool http_reply_take(struct http_req *req, const char *data, size_t len);

/* How a transfer ended, as libcurl says it. */
struct http_end {
	CURLcode code;
	long os_errno;               /* CURLINFO_OS_ERRNO: a connect's errno */
	long status;                 /* CURLINFO_RESPONSE_CODE */
	bool too_long;               /* the body did not fit the reply buffer */
	int timeout_ms;              /* the batch's, for "no answer within" */
	const char *detail;          /* libcurl's error buffer ("" when none) */
};

/* Set req->result, req->status and req->why from how it ended. */
void http_reply_end(struct http_req *req, const struct http_end *end);

#endif
