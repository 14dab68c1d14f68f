/* Fuzz target: the resume parsers of outside input, the swsusp header (a
 * swap area's first page) and, in the generator, /proc/swaps (mountinfo
 * is common/mountinfo.c's, fuzzed by fuzz_mountinfo). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/host/resumehost.h"
#include "resume/swsusp.h"

static const size_t page_sizes[] = { 4096, 8192, 16384, 65536, 3000, 0 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	char path[32];
	struct swsusp_header h;

	if (!line)
		return 0;
	for (size_t i = 0; i < sizeof(page_sizes) / sizeof(page_sizes[0]); i++)
		if (swsusp_header_parse(data, size, page_sizes[i], &h) == 0)
			(void)swsusp_kind_name(h.kind);
	memcpy(line, data, size);
	line[size] = '\0';
	resumehost_swaps_pick_largest(line, path, sizeof(path));
	free(line);
	return 0;
}
