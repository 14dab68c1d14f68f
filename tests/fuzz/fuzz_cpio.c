/* fuzz_cpio: the archive reader on outside input (lifeboat ls reads any file). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gen/archive/archive.h"

/* Touch every byte the reader hands out, so ASan sees any overread. */
static int entry_touch(const struct archive_entry *e, void *ctx)
{
	unsigned long *sum = ctx;

	*sum += strlen(e->path);
	for (size_t i = 0; i < e->size; i++)
		*sum += e->data[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long sum = 0;
	struct archive_error err;
	struct cpio_header h;

	cpio_header_parse(data, size, &h);
	archive_walk_buffer(data, size, entry_touch, &sum, &err);
	return 0;
}
