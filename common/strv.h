/* strv: a growable, NULL-terminated vector of owned strings. */
#ifndef LIFEBOAT_STRV_H
#define LIFEBOAT_STRV_H

#include <stdbool.h>
#include <stddef.h>

struct strv {
	char **items;   /* NULL-terminated; NULL when empty and never grown */
	size_t len;
	size_t cap;
};

#define STRV_INIT { NULL, 0, 0 }

/* Append a copy of s. Returns 0 or -ENOMEM. */
int strv_push(struct strv *v, const char *s);
/* Append a copy of s unless an equal string is already there. */
int strv_push_unique(struct strv *v, const char *s);
bool strv_contains(const struct strv *v, const char *s);
/* Split s on any of the characters in seps and append the non-empty parts. */
int strv_split_append(struct strv *v, const char *s, const char *seps);
void strv_sort(struct strv *v);
void strv_free(struct strv *v);

#endif
