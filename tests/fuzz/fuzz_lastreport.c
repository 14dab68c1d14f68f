/* fuzz_lastreport: shutdown/lastreport.c on arbitrary pstore records: no
 * crash; what is copied stays within its buffer, every line copied starts
 * with the way out's prefix, and their number is what was returned. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shutdown/lastreport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[256] = "", last[64];
	size_t lines = lastreport_extract((const char *)data, size, out, sizeof(out));
	size_t seen = 0;

	if (strnlen(out, sizeof(out)) >= sizeof(out))
		abort();
	for (const char *p = out; *p; seen++) {
		const char *nl = strchr(p, '\n');

		if (!nl || strncmp(p, LASTREPORT_PREFIX, strlen(LASTREPORT_PREFIX)) != 0)
			abort();
		p = nl + 1;
	}
	if (seen != lines)
		abort();
	lastreport_last_line(out, last, sizeof(last));
	return 0;
}
