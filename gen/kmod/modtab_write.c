/* modtab_write: format the module table's records (common/modtab.h). */
#include "gen/kmod/modtab_write.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char modtab_header[] = "# lifeboat module table: see common/modtab.h\n";

/* A field the parser can read back: no separator inside, not empty unless
 * it is the options field. */
static int field_check(const char *s, const char *forbidden, int may_be_empty)
{
	if (!s || (!may_be_empty && s[0] == '\0'))
		return -EINVAL;
	return s[strcspn(s, forbidden)] == '\0' ? 0 : -EINVAL;
}

/* Join a list with commas, "-" when empty. */
static int list_format(char *const *list, char **out)
{
	size_t len = 2;
	char *s;

	for (size_t i = 0; list && list[i]; i++) {
		if (field_check(list[i], "\t\n,", 0) < 0)
			return -EINVAL;
		len += strlen(list[i]) + 1;
	}
	s = malloc(len);
	if (!s)
		return -ENOMEM;
	strcpy(s, list && list[0] ? "" : "-");
	for (size_t i = 0; list && list[i]; i++) {
		if (i > 0)
			strcat(s, ",");
		strcat(s, list[i]);
	}
	*out = s;
	return 0;
}

static int line_push(struct strv *lines, char *line)
{
	int r;

	if (!line)
		return -ENOMEM;
	r = strv_push(lines, line);
	free(line);
	return r;
}

static char *line_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *line_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

int modtab_write_module(struct strv *lines, const char *name, const char *path,
			char *const *deps, const char *options)
{
	char *d;
	int r;

	if (field_check(name, "\t\n,", 0) < 0 || field_check(path, "\t\n", 0) < 0 ||
	    field_check(options, "\n", 1) < 0)
		return -EINVAL;
	r = list_format(deps, &d);
	if (r < 0)
		return r;
	r = line_push(lines, line_printf("m\t%s\t%s\t%s\t%s", name, path, d, options));
	free(d);
	return r;
}

int modtab_write_softdep(struct strv *lines, const char *name, char *const *pre,
			 char *const *post)
{
	char *p = NULL, *q = NULL;
	int r;

	if (field_check(name, "\t\n,", 0) < 0)
		return -EINVAL;
	r = list_format(pre, &p);
	if (r == 0)
		r = list_format(post, &q);
	if (r == 0)
		r = line_push(lines, line_printf("s\t%s\t%s\t%s", name, p, q));
	free(p);
	free(q);
	return r;
}

int modtab_write_alias(struct strv *lines, const char *pattern, const char *name)
{
	if (field_check(pattern, "\t\n", 0) < 0 || field_check(name, "\t\n,", 0) < 0)
		return -EINVAL;
	return line_push(lines, line_printf("a\t%s\t%s", pattern, name));
}

int modtab_write_blacklist(struct strv *lines, const char *name)
{
	if (field_check(name, "\t\n,", 0) < 0)
		return -EINVAL;
	return line_push(lines, line_printf("b\t%s", name));
}

int modtab_write_join(struct strv *lines, char **out, size_t *len)
{
	size_t n = strlen(modtab_header) + 1;
	char *s, *p;

	strv_sort(lines);
	for (size_t i = 0; i < lines->len; i++)
		n += strlen(lines->items[i]) + 1;
	s = malloc(n);
	if (!s)
		return -ENOMEM;
	p = stpcpy(s, modtab_header);
	for (size_t i = 0; i < lines->len; i++) {
		p = stpcpy(p, lines->items[i]);
		*p++ = '\n';
	}
	*p = '\0';
	*out = s;
	*len = (size_t)(p - s);
	return 0;
}
