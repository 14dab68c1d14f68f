/* httpreply: the answer's body within its buffer, and how a transfer
 * ended said as -errno and words. */
#include "bootlib/httpreply.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/termescape.h"

bool http_reply_take(struct http_req *req, const char *data, size_t len)
{
	/* The NUL needs its byte too: reply_len < reply_size always. */
	if (!req->reply || req->reply_size == 0 || len >= req->reply_size - req->reply_len)
		return false;
	memcpy(req->reply + req->reply_len, data, len);
	req->reply_len += len;
	req->reply[req->reply_len] = '\0';
	return true;
}

/* The ends that need no more than libcurl's code to be said. */
static const struct {
	CURLcode code;
	int err;
	const char *text;
} plain_ends[] = {
	{ CURLE_COULDNT_RESOLVE_HOST, -EHOSTUNREACH,
	  "its name does not resolve (the image asks the DNS servers DHCP or ip= gave)" },
	{ CURLE_GOT_NOTHING, -EBADMSG, "it closed the connection without an answer" },
	{ CURLE_WEIRD_SERVER_REPLY, -EBADMSG, "its answer is not HTTP" },
	{ CURLE_PARTIAL_FILE, -EBADMSG, "its answer ended before its length" },
	{ CURLE_SEND_ERROR, -EPIPE, "the connection broke while the request was sent" },
	{ CURLE_RECV_ERROR, -ECONNRESET, "the connection broke while the answer came" },
	{ CURLE_UNSUPPORTED_PROTOCOL, -EINVAL, "the URL is not http:// or https://" },
	{ CURLE_URL_MALFORMAT, -EINVAL, "the URL is malformed" },
	{ CURLE_PEER_FAILED_VERIFICATION, -EACCES, "its certificate does not verify" },
	{ CURLE_OUT_OF_MEMORY, -ENOMEM, "out of memory" },
};

static void say_timeout(struct http_req *req, int timeout_ms)
{
	req->result = -ETIMEDOUT;
	if (timeout_ms % 1000)
		snprintf(req->why, sizeof(req->why), "no answer within %d ms", timeout_ms);
	else
		snprintf(req->why, sizeof(req->why), "no answer within %d s", timeout_ms / 1000);
}

/* A connect that failed: the socket's errno says how, at once. */
static void say_connect(struct http_req *req, const struct http_end *end)
{
	req->result = end->os_errno > 0 ? -(int)end->os_errno : -ECONNREFUSED;
	switch (end->os_errno) {
	case ECONNREFUSED:
		snprintf(req->why, sizeof(req->why), "connection refused (nothing listens on its port)");
		break;
	case EHOSTUNREACH:
		snprintf(req->why, sizeof(req->why), "host unreachable (no answer to ARP, or no route)");
		break;
	case ENETUNREACH:
		snprintf(req->why, sizeof(req->why), "network unreachable (no route to its address)");
		break;
	case ETIMEDOUT:
		say_timeout(req, end->timeout_ms);
		break;
	default:
		snprintf(req->why, sizeof(req->why), "cannot connect: %s",
			 end->os_errno > 0 ? strerror((int)end->os_errno) : "refused");
	}
}

/* What libcurl said in its own words, escaped: its detail may quote the
 * server's bytes. */
static void say_detail(struct http_req *req, const struct http_end *end)
{
	char text[HTTP_WHY_MAX - 16];

	term_escape(text, sizeof(text), end->detail, strlen(end->detail), 0);
	req->result = -EIO;
	snprintf(req->why, sizeof(req->why), "%s", text[0] ? text : "the transfer failed");
}

void http_reply_end(struct http_req *req, const struct http_end *end)
{
	req->status = end->status > 0 && end->status < 1000 ? (int)end->status : 0;
	req->why[0] = '\0';
	req->result = 0;
	if (req->status && req->status != 200) {
		req->result = -EPROTO;
		snprintf(req->why, sizeof(req->why), "it answered HTTP %d", req->status);
	} else if (end->too_long) {
		req->result = -EMSGSIZE;
		snprintf(req->why, sizeof(req->why), "its answer is longer than %zu bytes",
			 req->reply_size ? req->reply_size - 1 : 0);
	} else if (end->code == CURLE_OK) {
		if (req->status != 200) {
			req->result = -EBADMSG;
			snprintf(req->why, sizeof(req->why), "its answer is not HTTP");
		}
	} else if (end->code == CURLE_OPERATION_TIMEDOUT) {
		say_timeout(req, end->timeout_ms);
	} else if (end->code == CURLE_COULDNT_CONNECT) {
		say_connect(req, end);
	} else {
		for (size_t i = 0; i < sizeof(plain_ends) / sizeof(plain_ends[0]); i++)
			if (plain_ends[i].code == end->code) {
				req->result = plain_ends[i].err;
				snprintf(req->why, sizeof(req->why), "%s", plain_ends[i].text);
				return;
			}
		say_detail(req, end);
	}
}
