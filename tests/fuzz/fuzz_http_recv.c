/* Fuzz target: lifeboat-clevis's HTTP exchange with a Tang server as the
 * socket delivers it (clevis/http.c's http_post_fd: send, the receive loop
 * with its Content-Length stop and size bound, the status and body). The
 * first byte gives the size of the pieces the answer arrives in: each is
 * one record of a SOCK_SEQPACKET pair, so every recv() of the loop gets
 * one piece, as a slow server's segments would arrive; the peer then
 * closes. */
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clevis/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct http_url url = { .host = "198.51.100.1", .port = "80", .path = "" };
	char out[4096];
	size_t piece;
	int sv[2], status;

	if (size < 1 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return 0;
	piece = (size_t)data[0] * 16 + 1;
	for (size_t at = 1; at < size; at += piece) {
		size_t n = size - at < piece ? size - at : piece;

		/* A full socket buffer ends the answer there: never block. */
		if (send(sv[1], data + at, n, MSG_DONTWAIT) != (ssize_t)n)
			break;
	}
	shutdown(sv[1], SHUT_WR);
	http_post_fd(sv[0], &url, "/rec/kid", "application/jwk+json", "{}", out, sizeof(out), 1000,
		     &status);
	close(sv[0]);
	close(sv[1]);
	return 0;
}
