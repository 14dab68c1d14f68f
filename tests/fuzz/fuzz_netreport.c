/* Fuzz target: rescue/netreport.c's readers of the kernel's route tables
 * (/proc/net/route, /proc/net/ipv6_route, line by line) and of a
 * net.IFACE.conf for the failure summary's lease line. The first byte
 * chooses the output's size; every output stays within it, NUL-ended. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rescue/netreport.h"

static void check(const char *out, size_t size)
{
	if (strnlen(out, size) >= size)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[300];
	size_t out_size;
	char *text;

	if (size < 1)
		return 0;
	out_size = 1 + data[0] % sizeof(out);
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	netreport_lease(text, out, out_size);
	check(out, out_size);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (netreport_route4(line, out, out_size) == 0)
			check(out, out_size);
		if (netreport_route6(line, out, out_size) == 0)
			check(out, out_size);
	}
	free(text);
	return 0;
}
