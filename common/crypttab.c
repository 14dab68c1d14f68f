/* crypttab: split crypttab(5) lines into fields; compare UUIDs by their digits. */
#include "common/crypttab.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The next blank-separated field of *s into out; 0 at the end of the line. */
static int next_field(const char **s, char *out, size_t size)
{
	size_t n = 0;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	if (!**s || **s == '\n' || **s == '\r')
		return 0;
	while (**s && !isspace((unsigned char)**s)) {
		if (n + 1 >= size)
			return -ENAMETOOLONG;
		out[n++] = *(*s)++;
	}
	out[n] = '\0';
	return 1;
}

int crypttab_parse_line(const char *line, struct crypttab_entry *e)
{
	char *fields[] = { e->name, e->source, e->keyfile, e->options };
	char extra[8];
	int n = 0, r = 1;

	memset(e, 0, sizeof(*e));
	while (n < 4 && (r = next_field(&line, fields[n], CRYPTTAB_FIELD_MAX)) == 1)
		n++;
	if (r < 0)
		return r;
	if (n == 0 || e->name[0] == '#')
		return 0;
	if (n < 2 || strchr(e->name, '/') || next_field(&line, extra, sizeof(extra)) != 0)
		return -EINVAL;
	if (n < 3 || strcmp(e->keyfile, "-") == 0)
		strcpy(e->keyfile, "none");
	return 1;
}

bool crypttab_has_keyfile(const struct crypttab_entry *e)
{
	return e->keyfile[0] == '/' && strncmp(e->keyfile, "/dev/", 5) != 0;
}

bool crypttab_source_uuid(const char *source, char *uuid, size_t size)
{
	static const char *const prefixes[] = { "UUID=", "/dev/disk/by-uuid/" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);

		if (strncmp(source, prefixes[i], n) == 0 && source[n]) {
			snprintf(uuid, size, "%s", source + n);
			return true;
		}
	}
	return false;
}

bool crypttab_uuid_hex(const char *uuid, char hex[33])
{
	size_t n = 0;

	for (; *uuid; uuid++) {
		if (!isxdigit((unsigned char)*uuid))
			continue;
		if (n == 32)
			return false;
		hex[n++] = (char)tolower((unsigned char)*uuid);
	}
	hex[n] = '\0';
	return n == 32;
}

/* The next hex digit, skipping separators; 0 at the end. */
static int next_hex(const char **s)
{
	while (**s && !isxdigit((unsigned char)**s))
		(*s)++;
	return **s ? tolower((unsigned char)*(*s)++) : 0;
}

bool crypttab_uuid_equal(const char *a, const char *b)
{
	for (;;) {
		int ca = next_hex(&a);

		if (ca != next_hex(&b))
			return false;
		if (!ca)
			return true;
	}
}
