/* modtab: parse the module table (format in modtab.h) and look modules up in it. */
#include "common/modtab.h"
#include "common/strv.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define MODTAB_MAX_FIELDS 4

/* One line cut into its fields; the strings point into a private copy. */
struct modtab_line {
	char type;
	char *field[MODTAB_MAX_FIELDS];
	size_t n_fields;
};

/* Fields a record type has; the last one of an "m" line is the rest of the line. */
static const struct {
	char type;
	size_t n_fields;
} modtab_types[] = {
	{ 'm', 4 },
	{ 's', 3 },
	{ 'a', 2 },
	{ 'b', 1 },
};

static size_t modtab_type_fields(char type)
{
	for (size_t i = 0; i < sizeof(modtab_types) / sizeof(modtab_types[0]); i++)
		if (modtab_types[i].type == type)
			return modtab_types[i].n_fields;
	return 0;
}

/* Split line (modified in place) into its type and fields; -EINVAL when the
 * shape is wrong. Only the last field of an "m" line may be empty. */
static int modtab_line_split(char *line, struct modtab_line *out)
{
	size_t want = modtab_type_fields(line[0]);
	char *p = line + 2;

	if (want == 0 || line[1] != '\t')
		return -EINVAL;
	out->type = line[0];
	out->n_fields = want;
	for (size_t i = 0; i < want; i++) {
		char *tab = (i + 1 < want || out->type != 'm') ? strchr(p, '\t') : NULL;

		out->field[i] = p;
		if (i + 1 < want) {
			if (!tab)
				return -EINVAL;
			*tab = '\0';
			p = tab + 1;
		} else if (tab) {
			return -EINVAL;
		}
		if (*out->field[i] == '\0' && !(out->type == 'm' && i == 3))
			return -EINVAL;
	}
	return 0;
}

/* A comma list ("-" for none) as a NULL-terminated array, never NULL itself. */
static int modtab_list_parse(const char *s, char ***out)
{
	struct strv v = STRV_INIT;
	size_t n = strlen(s);

	if (strcmp(s, "-") != 0) {
		/* "a,,b", ",a" and "a," are malformed, not silently shortened. */
		if (s[0] == ',' || s[n - 1] == ',' || strstr(s, ",,"))
			return -EINVAL;
		if (strv_split_append(&v, s, ",") < 0) {
			strv_free(&v);
			return -ENOMEM;
		}
	}
	if (!v.items) {
		v.items = calloc(1, sizeof(*v.items));
		if (!v.items)
			return -ENOMEM;
	}
	*out = v.items;
	return 0;
}

static void modtab_list_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

static int modtab_module_add(struct modtab *t, const struct modtab_line *l, size_t cap)
{
	struct modtab_module *m;
	int r;

	if (t->n_mods >= cap)
		return -EINVAL;
	m = &t->mods[t->n_mods];
	memset(m, 0, sizeof(*m));
	m->name = strdup(l->field[0]);
	m->path = strdup(l->field[1]);
	m->options = strdup(l->field[3]);
	t->n_mods++;
	if (!m->name || !m->path || !m->options)
		return -ENOMEM;
	r = modtab_list_parse(l->field[2], &m->deps);
	if (r < 0)
		return r;
	r = modtab_list_parse("-", &m->pre);
	if (r < 0)
		return r;
	return modtab_list_parse("-", &m->post);
}

static int modtab_alias_add(struct modtab *t, const struct modtab_line *l, size_t cap)
{
	struct modtab_alias *a;

	if (t->n_aliases >= cap)
		return -EINVAL;
	a = &t->aliases[t->n_aliases];
	a->pattern = strdup(l->field[0]);
	a->module = strdup(l->field[1]);
	t->n_aliases++;
	if (!a->pattern || !a->module)
		return -ENOMEM;
	a->literal_len = strcspn(a->pattern, "*?[\\");
	return 0;
}

/* Softdeps and blacklist entries refer to modules: applied in a second pass,
 * once every module is known. Entries for modules not in the table are
 * ignored: the init must boot with what it has. */
static int modtab_softdep_apply(struct modtab *t, const struct modtab_line *l)
{
	struct modtab_module *m = modtab_find(t, l->field[0]);
	char **pre, **post;
	int r;

	r = modtab_list_parse(l->field[1], &pre);
	if (r < 0)
		return r;
	r = modtab_list_parse(l->field[2], &post);
	if (r < 0) {
		modtab_list_free(pre);
		return r;
	}
	if (!m) {
		modtab_list_free(pre);
		modtab_list_free(post);
		return 0;
	}
	modtab_list_free(m->pre);
	modtab_list_free(m->post);
	m->pre = pre;
	m->post = post;
	return 0;
}

static int modtab_line_apply(struct modtab *t, const struct modtab_line *l, int pass,
			     size_t cap)
{
	if (pass == 1 && l->type == 'm')
		return modtab_module_add(t, l, cap);
	if (pass == 1 && l->type == 'a')
		return modtab_alias_add(t, l, cap);
	if (pass == 2 && l->type == 's')
		return modtab_softdep_apply(t, l);
	if (pass == 2 && l->type == 'b') {
		struct modtab_module *m = modtab_find(t, l->field[0]);

		if (m)
			m->blacklisted = true;
	}
	return 0;
}

static int modtab_cmp_module(const void *a, const void *b)
{
	const struct modtab_module *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* After pass 1: sort modules by name for modtab_find's binary search, and
 * refuse two records for one name (the table would be ambiguous). */
static int modtab_index(struct modtab *t)
{
	if (t->n_mods > 1)
		qsort(t->mods, t->n_mods, sizeof(*t->mods), modtab_cmp_module);
	for (size_t i = 1; i < t->n_mods; i++)
		if (strcmp(t->mods[i - 1].name, t->mods[i].name) == 0)
			return -EINVAL;
	return 0;
}

/* Run one pass over every line of text; *bad_line names the line that failed. */
static int modtab_pass(struct modtab *t, const char *text, size_t len, int pass,
		       size_t cap, size_t *bad_line)
{
	size_t line_no = 0;

	for (size_t start = 0; start < len;) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *line = strndup(text + start, end - start);
		struct modtab_line l;
		int r = 0;

		line_no++;
		if (!line)
			return -ENOMEM;
		if (strlen(line) != end - start)
			r = -EINVAL;   /* a NUL byte inside a line */
		else if (line[0] != '\0' && line[0] != '#') {
			r = modtab_line_split(line, &l);
			if (r == 0)
				r = modtab_line_apply(t, &l, pass, cap);
		}
		free(line);
		if (r < 0) {
			*bad_line = line_no;
			return r;
		}
		start = end + 1;
	}
	return 0;
}

static size_t modtab_count_lines(const char *text, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

int modtab_parse(const char *text, size_t len, struct modtab *out, size_t *bad_line)
{
	size_t cap = modtab_count_lines(text, len);
	size_t ignored;
	int r;

	if (!bad_line)
		bad_line = &ignored;
	*bad_line = 0;
	memset(out, 0, sizeof(*out));
	/* At most one record a line: sizing by lines avoids growing arrays. */
	out->mods = calloc(cap, sizeof(*out->mods));
	out->aliases = calloc(cap, sizeof(*out->aliases));
	if (!out->mods || !out->aliases) {
		modtab_free(out);
		return -ENOMEM;
	}
	r = modtab_pass(out, text, len, 1, cap, bad_line);
	if (r == 0)
		r = modtab_index(out);
	if (r == 0)
		r = modtab_pass(out, text, len, 2, cap, bad_line);
	if (r < 0)
		modtab_free(out);
	return r;
}

void modtab_free(struct modtab *t)
{
	for (size_t i = 0; i < t->n_mods; i++) {
		struct modtab_module *m = &t->mods[i];

		free(m->name);
		free(m->path);
		free(m->options);
		modtab_list_free(m->deps);
		modtab_list_free(m->pre);
		modtab_list_free(m->post);
	}
	for (size_t i = 0; i < t->n_aliases; i++) {
		free(t->aliases[i].pattern);
		free(t->aliases[i].module);
	}
	free(t->mods);
	free(t->aliases);
	memset(t, 0, sizeof(*t));
}

struct modtab_module *modtab_find(const struct modtab *t, const char *name)
{
	struct modtab_module key = { .name = (char *)name };

	if (t->n_mods == 0)
		return NULL;
	return bsearch(&key, t->mods, t->n_mods, sizeof(*t->mods), modtab_cmp_module);
}

static bool modtab_seen(struct modtab_module **seen, size_t n, const struct modtab_module *m)
{
	for (size_t i = 0; i < n; i++)
		if (seen[i] == m)
			return true;
	return false;
}

int modtab_match(const struct modtab *t, const char *modalias,
		 int (*fn)(struct modtab_module *m, void *ctx), void *ctx)
{
	/* A modalias matches a handful of modules; each is reported once even
	 * when several of its patterns match. */
	struct modtab_module *seen[64];
	size_t n_seen = 0;

	for (size_t i = 0; i < t->n_aliases; i++) {
		const struct modtab_alias *a = &t->aliases[i];
		struct modtab_module *m;
		int r;

		/* Most patterns differ from the modalias within their literal
		 * prefix; comparing it first skips the costly fnmatch. */
		if (strncmp(a->pattern, modalias, a->literal_len) != 0)
			continue;
		if (fnmatch(a->pattern, modalias, 0) != 0)
			continue;
		m = modtab_find(t, a->module);
		if (!m || modtab_seen(seen, n_seen, m))
			continue;
		if (n_seen < sizeof(seen) / sizeof(seen[0]))
			seen[n_seen++] = m;
		r = fn(m, ctx);
		if (r != 0)
			return r;
	}
	return 0;
}

bool modtab_modalias_wanted(const char *modalias)
{
	return strncmp(modalias, "cpu:", 4) != 0;
}
