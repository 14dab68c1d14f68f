/* Fuzz target: the lines a remote login sends to a console prompt
 * (bootlib/guest.c's guest_read_line: byte by byte, long lines cut at the
 * buffer, a CR before the newline dropped), read until the guest leaves;
 * every line fits the buffer, ends there and holds no newline. */
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/guest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[64];
	int sv[2], n;

	if (size > 65536 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 0;
	if (write(sv[1], data, size) != (ssize_t)size) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	close(sv[1]);
	while ((n = guest_read_line(sv[0], line, sizeof(line))) >= 0)
		if ((size_t)n >= sizeof(line) || line[n] != '\0' || memchr(line, '\n', (size_t)n))
			__builtin_trap();
	close(sv[0]);
	return 0;
}
