/* config: the "key = value" configuration files of the generator. */
#include "gen/opts/config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_report.h"

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static char *unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s[n - 1] = '\0';
		return s + 1;
	}
	return s;
}

static int config_line(char *line, const char *file, unsigned int lineno, config_fn fn, void *ctx)
{
	char *eq, *key, *value;

	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq) {
		gen_error("%s:%u: expected 'key = value', found '%s'", file, lineno, line);
		return -EINVAL;
	}
	*eq = '\0';
	key = trim(line);
	value = unquote(trim(eq + 1));
	if (!*key) {
		gen_error("%s:%u: a setting has no name before '='", file, lineno);
		return -EINVAL;
	}
	return fn(key, value, file, lineno, ctx);
}

int config_parse(const char *text, size_t len, const char *file, config_fn fn, void *ctx)
{
	unsigned int lineno = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *line = strndup(text + pos, n);
		int r;

		if (!line)
			return -ENOMEM;
		lineno++;
		r = config_line(line, file, lineno, fn, ctx);
		free(line);
		if (r)
			return r;
		pos += n + 1;
	}
	return 0;
}

int config_parse_file(const char *path, int optional, config_fn fn, void *ctx)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t size = 0;
	ssize_t n;
	int r;

	if (!f) {
		if (optional && errno == ENOENT)
			return 0;
		r = -errno;
		gen_error("cannot read the configuration %s: %s", path, strerror(errno));
		return r;
	}
	/* The whole file at once; getdelim with NUL reads to the end. */
	n = getdelim(&text, &size, '\0', f);
	r = n < 0 && ferror(f) ? -EIO : 0;
	fclose(f);
	if (r < 0)
		gen_error("cannot read the configuration %s: read error", path);
	else if (n > 0)
		r = config_parse(text, (size_t)n, path, fn, ctx);
	free(text);
	return r;
}

static int is_conf(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 5 && strcmp(de->d_name + n - 5, ".conf") == 0;
}

int config_load_system(const char *root, config_fn fn, void *ctx)
{
	char path[4096];
	struct dirent **names = NULL;
	int n, r;

	snprintf(path, sizeof(path), "%s%s", root, CONFIG_FILE);
	r = config_parse_file(path, 1, fn, ctx);
	snprintf(path, sizeof(path), "%s%s", root, CONFIG_DIR);
	n = scandir(path, &names, is_conf, alphasort);
	for (int i = 0; i < n; i++) {
		if (r == 0) {
			snprintf(path, sizeof(path), "%s%s/%s", root, CONFIG_DIR, names[i]->d_name);
			r = config_parse_file(path, 0, fn, ctx);
		}
		free(names[i]);
	}
	free(names);
	return r;
}
