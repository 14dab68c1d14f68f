/* Unit tests: room in a growing array (common/array.c): doubling from the
 * first size, the same pointer while there is room, and sizes that would
 * not fit refused with the array left as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/array.h"

static void doubles_from_first(void **state)
{
	int *items = NULL, *grown;
	size_t cap = 0;

	(void)state;
	for (size_t len = 0; len < 100; len++) {
		grown = array_grow(items, &cap, len, sizeof(*items), 4);
		assert_non_null(grown);
		assert_true(cap > len);
		if (len > 0 && len < 4)
			assert_ptr_equal(grown, items);
		items = grown;
		items[len] = (int)len;
	}
	assert_int_equal(cap, 128);
	for (int i = 0; i < 100; i++)
		assert_int_equal(items[i], i);
	free(items);
}

/* An index far past cap gets room at once; first 0 counts as 1. */
static void room_for_a_far_index(void **state)
{
	char *items;
	size_t cap = 0;

	(void)state;
	items = array_grow(NULL, &cap, 0, 1, 0);
	assert_non_null(items);
	assert_int_equal(cap, 1);
	items = array_grow(items, &cap, 40, 1, 0);
	assert_non_null(items);
	assert_int_equal(cap, 64);
	free(items);
}

static void overflow_refused(void **state)
{
	size_t cap = 16;
	char *items = malloc(cap), *grown;

	(void)state;
	assert_non_null(items);
	grown = array_grow(items, &cap, SIZE_MAX / 2 + 1, 1, 16);
	assert_null(grown);
	assert_int_equal(cap, 16);
	grown = array_grow(items, &cap, 16, SIZE_MAX / 16, 16);
	assert_null(grown);
	assert_int_equal(cap, 16);
	items[15] = 'x';   /* still the caller's, and whole */
	free(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(doubles_from_first),
		cmocka_unit_test(room_for_a_far_index),
		cmocka_unit_test(overflow_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
