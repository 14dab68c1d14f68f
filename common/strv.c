/* strv: a growable, NULL-terminated vector of owned strings. */
#include "common/strv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"

/* Room for one more string and the NULL terminator after it. */
static int strv_grow(struct strv *v)
{
	char **items = array_grow(v->items, &v->cap, v->len + 1, sizeof(*items), 8);

	if (!items)
		return -ENOMEM;
	v->items = items;
	return 0;
}

int strv_push(struct strv *v, const char *s)
{
	char *copy;

	if (strv_grow(v) < 0)
		return -ENOMEM;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	v->items[v->len++] = copy;
	v->items[v->len] = NULL;
	return 0;
}

bool strv_contains(const struct strv *v, const char *s)
{
	for (size_t i = 0; i < v->len; i++)
		if (strcmp(v->items[i], s) == 0)
			return true;
	return false;
}

int strv_push_unique(struct strv *v, const char *s)
{
	return strv_contains(v, s) ? 0 : strv_push(v, s);
}

int strv_split_append(struct strv *v, const char *s, const char *seps)
{
	while (*s) {
		size_t n = strcspn(s, seps);

		if (n > 0) {
			char *part = strndup(s, n);
			int r;

			if (!part)
				return -ENOMEM;
			r = strv_push(v, part);
			free(part);
			if (r < 0)
				return r;
		}
		s += n;
		if (*s)
			s++;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *v)
{
	if (v->len > 1)
		qsort(v->items, v->len, sizeof(*v->items), cmp_str);
}

void strv_free(struct strv *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->items[i]);
	free(v->items);
	v->items = NULL;
	v->len = v->cap = 0;
}
