/* p11kit_conf: the few members of a p11-kit module file the PKCS#11
 * packer needs; the others (priority, critical, x-*) are p11-kit's own. */
#include "gen/feature/p11kit_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_LEN 1024

/* One "name: value" line, trimmed, into name and value (both cut to fit).
 * false for a comment, a blank line or one without a colon. */
static bool split_line(const char *line, size_t len, char *name, size_t name_size,
		       char *value, size_t value_size, bool *value_cut)
{
	const char *colon = memchr(line, ':', len);
	size_t a = 0, b;

	while (a < len && isspace((unsigned char)line[a]))
		a++;
	if (!colon || a == len || line[a] == '#')
		return false;
	b = (size_t)(colon - line);
	while (b > a && isspace((unsigned char)line[b - 1]))
		b--;
	snprintf(name, name_size, "%.*s", (int)(b - a), line + a);
	a = (size_t)(colon - line) + 1;
	b = len;
	while (a < b && isspace((unsigned char)line[a]))
		a++;
	while (b > a && isspace((unsigned char)line[b - 1]))
		b--;
	*value_cut = b - a >= value_size;
	snprintf(value, value_size, "%.*s", (int)(b - a), line + a);
	return true;
}

/* Whether word is one of list's names (separated by commas or blanks). */
static bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ", \t");

		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len;
		p += strspn(p, ", \t");
	}
	return false;
}

static bool is_yes(const char *value)
{
	return strcasecmp(value, "yes") == 0 || strcasecmp(value, "true") == 0;
}

/* What enable-in and disable-in said, whichever came first. */
struct programs {
	bool enable_in_seen, in_enable, in_disable;
};

static int apply(struct p11kit_module *m, struct programs *pr, const char *name,
		 const char *value, bool cut)
{
	if (strcmp(name, "module") == 0) {
		if (cut)
			return -ENAMETOOLONG;
		snprintf(m->module, sizeof(m->module), "%s", value);
	} else if (strcmp(name, "trust-policy") == 0) {
		m->trust_policy = is_yes(value);
	} else if (strcmp(name, "enable-in") == 0) {
		pr->enable_in_seen = true;
		pr->in_enable = list_has(value, P11KIT_CONF_PROGRAM);
	} else if (strcmp(name, "disable-in") == 0) {
		pr->in_disable = list_has(value, P11KIT_CONF_PROGRAM);
	}
	return 0;
}

int p11kit_conf_parse(const char *text, size_t len, struct p11kit_module *m)
{
	struct programs pr = { false, false, false };
	const char *end;

	memset(m, 0, sizeof(*m));
	end = text + strnlen(text, len);
	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t line_len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char name[64], value[LINE_MAX_LEN];
		bool cut;

		if (split_line(p, line_len, name, sizeof(name), value, sizeof(value), &cut) &&
		    apply(m, &pr, name, value, cut || strlen(value) >= sizeof(m->module)) < 0)
			return -ENAMETOOLONG;
		p += line_len + (nl ? 1 : 0);
	}
	m->enabled = (!pr.enable_in_seen || pr.in_enable) && !pr.in_disable;
	return m->module[0] ? 0 : -ENOENT;
}

bool p11kit_conf_wanted(const struct p11kit_module *m)
{
	return m->module[0] && m->enabled && !m->trust_policy;
}
