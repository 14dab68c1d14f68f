/* array: room in a growing array of any element type, grown by doubling. */
#ifndef LIFEBOAT_COMMON_ARRAY_H
#define LIFEBOAT_COMMON_ARRAY_H

#include <stddef.h>

/* items (cap elements of size bytes, or NULL with cap 0) with room for
 * element number len: the same pointer when it has it, else the array
 * realloc'd to twice its elements (first at the start) and *cap set.
 * Returns NULL with items and *cap untouched when memory runs out or the
 * size would not fit a size_t. */
void *array_grow(void *items, size_t *cap, size_t len, size_t size, size_t first);

#endif
