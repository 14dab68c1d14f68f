/* Fuzz target: the image's HTTP client reading a server's answer
 * (bootlib/http.c through libcurl, bootlib/httpreply.c: the body kept
 * within its buffer, the status checked, the end said in words), as
 * lifeboat-clevis's POST to a Tang server's /rec/KID meets it. A server
 * on the loopback (tests/unit/http_server.h) takes the request and sends
 * the input after its first byte as the answer, in pieces of the size the
 * first byte gives (each its own TCP segment), then closes its side. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/http.h"
#include "tests/unit/http_server.h"

static struct http_server *server(void)
{
	static struct http_server s;
	static bool up;

	if (!up && http_server_start(&s) < 0)
		abort();
	up = true;
	return &s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_server *s = server();
	char url[96], reply[4096];
	struct http_req req = { .url = url, .type = "application/jwk+json", .body = "{}",
				.reply = reply, .reply_size = sizeof(reply) };

	if (size < 1)
		return 0;
	snprintf(url, sizeof(url), "%s/rec/kid", s->url);
	http_server_set(s, data + 1, size - 1, (size_t)data[0] * 16 + 1, false);
	http_fetch_many(&req, 1, 1, 5000);
	/* What a caller relies on: a success is a 200 with its body, NUL-
	 * terminated in the buffer; a failure says why. */
	if (req.result == 0 && (req.status != 200 || req.reply_len >= sizeof(reply) ||
				reply[req.reply_len] != '\0'))
		abort();
	if (req.result != 0 && !req.why[0])
		abort();
	return 0;
}
