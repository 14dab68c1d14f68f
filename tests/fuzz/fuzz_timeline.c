/* Fuzz target: the boot timeline parser and the SVG drawn from what it
 * accepts, on arbitrary input. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen/cmd/timeline_read.h"
#include "gen/cmd/timeline_svg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct timeline tl = { 0 };
	unsigned int bad = 0;
	char *svg = NULL;
	size_t len = 0;

	if (timeline_read_parse((const char *)data, size, &tl, &bad) == 0) {
		FILE *f = open_memstream(&svg, &len);

		if (f) {
			timeline_svg_write(&tl, f);
			fclose(f);
		}
		free(svg);
	}
	timeline_read_free(&tl);
	return 0;
}
