/* array: room in a growing array, one doubling rule with its overflow check. */
#include "common/array.h"

#include <stdint.h>
#include <stdlib.h>

void *array_grow(void *items, size_t *cap, size_t len, size_t size, size_t first)
{
	size_t want = *cap ? *cap : first ? first : 1;
	void *grown;

	if (len < *cap)
		return items;
	/* From cap, which len has reached, this doubles at least once. */
	while (want <= len) {
		if (want > SIZE_MAX / 2)
			return NULL;
		want *= 2;
	}
	if (size && want > SIZE_MAX / size)
		return NULL;
	grown = realloc(items, want * size);
	if (!grown)
		return NULL;
	*cap = want;
	return grown;
}
