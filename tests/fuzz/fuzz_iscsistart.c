/* fuzz_iscsistart: iscsistart's output as the login reads it from the
 * pipe, in pieces of any size: no crash, no line longer than the buffer,
 * and the status noted is the one the last status line reports, whatever
 * the pieces (lines cut at the buffer's length, as the parser does). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/iscsi/iscsistart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The same text line by line at once: the status of the last status line. */
static int whole_status(const char *text, size_t size)
{
	char line[ISCSISTART_LINE_MAX];
	int status = 0;

	for (size_t at = 0; at < size; ) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
		size_t keep = len < sizeof(line) - 1 ? len : sizeof(line) - 1;
		int s;

		memcpy(line, text + at, keep);
		line[keep] = '\0';
		s = iscsistart_reported_status(line);
		if (s > 0)
			status = s;
		at += len + 1;
	}
	return status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iscsistart_output o = { .len = 0 };
	size_t at = 1;

	if (size < 1)
		return 0;
	/* The first byte chooses the pieces' size, as reads of a pipe vary. */
	for (size_t piece = 1 + data[0] % 64; at < size; at += piece) {
		size_t n = size - at < piece ? size - at : piece;

		iscsistart_output_feed(&o, (const char *)data + at, n, NULL);
		if (o.len >= sizeof(o.line))
			abort();
	}
	iscsistart_output_end(&o, NULL);
	if (o.reported != whole_status((const char *)data + 1, size - 1))
		abort();
	return 0;
}
