/* lvmfilter: walk an lvm.conf's sections and assignments, keeping two settings. */
#include "gen/host/lvmfilter.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct walker {
	const char *s;
	int depth;                 /* sections open */
	bool top_is_devices;       /* the outermost open section is "devices" */
};

/* Skip blanks, newlines and # comments. */
static void skip_space(struct walker *w)
{
	for (;;) {
		while (isspace((unsigned char)*w->s))
			w->s++;
		if (*w->s != '#')
			return;
		while (*w->s && *w->s != '\n')
			w->s++;
	}
}

static void skip_string(struct walker *w)
{
	w->s++;
	while (*w->s && *w->s != '"') {
		if (*w->s == '\\' && w->s[1])
			w->s++;
		w->s++;
	}
	if (*w->s)
		w->s++;
}

/* A value: "string", [ list ], or a bare word/number; w->s moves past it. */
static void skip_value(struct walker *w)
{
	if (*w->s == '"') {
		skip_string(w);
	} else if (*w->s == '[') {
		w->s++;
		for (skip_space(w); *w->s && *w->s != ']'; skip_space(w)) {
			if (*w->s == '"')
				skip_string(w);
			else
				w->s++;
		}
		if (*w->s)
			w->s++;
	} else {
		while (*w->s && !isspace((unsigned char)*w->s) && *w->s != '}' && *w->s != '#')
			w->s++;
	}
}

static bool wanted_key(const char *key, size_t len)
{
	return (len == 6 && strncmp(key, "filter", 6) == 0) ||
	       (len == 13 && strncmp(key, "global_filter", 13) == 0);
}

static int keep(char *out, size_t size, size_t *n, const char *key, size_t key_len,
		const char *value, size_t value_len)
{
	int w = snprintf(out + *n, size - *n, "\t%.*s = %.*s\n", (int)key_len, key,
			 (int)value_len, value);

	if (w < 0 || (size_t)w >= size - *n)
		return -E2BIG;
	*n += (size_t)w;
	return 0;
}

/* One "NAME {", "}" or "KEY = VALUE" at w->s. */
static int step(struct walker *w, char *out, size_t size, size_t *n)
{
	const char *name = w->s;
	size_t len;

	if (*w->s == '}') {
		w->s++;
		w->depth = w->depth > 0 ? w->depth - 1 : 0;
		return 0;
	}
	while (isalnum((unsigned char)*w->s) || *w->s == '_' || *w->s == '/')
		w->s++;
	len = (size_t)(w->s - name);
	skip_space(w);
	if (len && *w->s == '{') {
		w->s++;
		if (w->depth == 0)
			w->top_is_devices = len == 7 && strncmp(name, "devices", 7) == 0;
		w->depth++;
		return 0;
	}
	if (!len || *w->s != '=') {
		w->s += *w->s ? 1 : 0;   /* not lvm.conf syntax: step over it */
		return 0;
	}
	w->s++;
	skip_space(w);
	{
		const char *value = w->s;

		skip_value(w);
		if (w->depth == 1 && w->top_is_devices && wanted_key(name, len))
			return keep(out, size, n, name, len, value, (size_t)(w->s - value));
	}
	return 0;
}

int lvmfilter_extract(const char *text, char *out, size_t size)
{
	struct walker w = { text, 0, false };
	size_t n = 0;
	int r = 0;

	if (size == 0)
		return -E2BIG;
	out[0] = '\0';
	for (skip_space(&w); r == 0 && *w.s; skip_space(&w))
		r = step(&w, out, size, &n);
	if (r < 0)
		out[0] = '\0';
	return r;
}
