/* ldconf: the library directories listed in ld.so.conf and what it includes. */
#include "gen/elf/ldconf.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/elf/rootpath.h"
#include "gen/gen_report.h"

/* Deep enough for any real configuration, shallow enough to stop a file
 * that includes itself. */
#define LDCONF_MAX_DEPTH 8

static int ldconf_file(const char *root, const char *conf, int depth, struct strv *dirs);

/* The logical directory of the pattern, resolved inside root when it holds
 * no glob characters (so /etc -> elsewhere symlinks stay inside root). */
static int include_pattern(const char *root, const char *conf, const char *pattern, char *out, size_t size)
{
	char logical[PATH_MAX], dir[PATH_MAX];
	const char *slash;
	int n;

	if (pattern[0] == '/')
		n = snprintf(logical, sizeof(logical), "%s", pattern);
	else
		n = snprintf(logical, sizeof(logical), "%.*s/%s",
			     (int)(strrchr(conf, '/') - conf), conf, pattern);
	if (n < 0 || (size_t)n >= sizeof(logical))
		return -ENAMETOOLONG;
	slash = strrchr(logical, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash == logical ? 1 : (int)(slash - logical), logical);
	if (strpbrk(dir, "*?[") == NULL) {
		char resolved[PATH_MAX];
		int r = rootpath_resolve(root, dir, resolved, sizeof(resolved));
		if (r < 0)
			return r;
		memcpy(dir, resolved, sizeof(dir));
	}
	n = snprintf(logical, sizeof(logical), "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, slash + 1);
	if (n < 0 || (size_t)n >= sizeof(logical))
		return -ENAMETOOLONG;
	return rootpath_host(root, logical, out, size);
}

static int ldconf_include(const char *root, const char *conf, const char *pattern, int depth, struct strv *dirs)
{
	char host[PATH_MAX], prefix[PATH_MAX];
	glob_t g;
	int r = include_pattern(root, conf, pattern, host, sizeof(host));

	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r == 0)
		r = rootpath_host(root, "", prefix, sizeof(prefix));
	if (r < 0) {
		gen_warn("%s: cannot follow \"include %s\": %s; the directories it lists are not searched for libraries",
			 conf, pattern, strerror(-r));
		return 0;
	}
	r = glob(host, 0, NULL, &g);
	if (r == GLOB_NOSPACE)
		return -ENOMEM;
	if (r != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc && r == 0; i++)
		r = ldconf_file(root, g.gl_pathv[i] + strlen(prefix), depth + 1, dirs);
	globfree(&g);
	return r;
}

/* A directory entry: "dir", or the old "dir=type" form. */
static int ldconf_dir(char *tok, struct strv *dirs)
{
	size_t n;

	tok[strcspn(tok, "=")] = '\0';
	n = strlen(tok);
	while (n > 1 && tok[n - 1] == '/')
		tok[--n] = '\0';
	if (tok[0] != '/')
		return 0;
	return strv_push_unique(dirs, tok);
}

static int ldconf_line(const char *root, const char *conf, char *line, int depth, struct strv *dirs)
{
	static const char blank[] = " \t\r\n";
	char *save = NULL;
	char *tok;
	int r = 0;

	line[strcspn(line, "#")] = '\0';
	tok = strtok_r(line, blank, &save);
	if (!tok || strcmp(tok, "hwcap") == 0)
		return 0;
	if (strcmp(tok, "include") == 0) {
		while (r == 0 && (tok = strtok_r(NULL, blank, &save)))
			r = ldconf_include(root, conf, tok, depth, dirs);
		return r;
	}
	/* Old files separate directories with ':' or ',' as well. */
	for (; tok && r == 0; tok = strtok_r(NULL, " \t\r\n:,", &save))
		r = ldconf_dir(tok, dirs);
	return r;
}

static int ldconf_file(const char *root, const char *conf, int depth, struct strv *dirs)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int fd, r = 0;

	if (depth > LDCONF_MAX_DEPTH) {
		gen_warn("%s: includes nest more than %d deep (does it include itself?); not read",
			 conf, LDCONF_MAX_DEPTH);
		return 0;
	}
	fd = rootpath_open(root, conf, O_RDONLY);
	if (fd == -ENOENT || fd == -ENOTDIR)
		return 0;
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		gen_warn("cannot read %s: %s; the directories it lists are not searched for libraries",
			 conf, strerror(fd < 0 ? -fd : errno));
		return 0;
	}
	while (r == 0 && getline(&line, &cap, f) >= 0)
		r = ldconf_line(root, conf, line, depth, dirs);
	free(line);
	fclose(f);
	return r;
}

int ldconf_read(const char *root, const char *conf, struct strv *dirs)
{
	return ldconf_file(root, conf, 0, dirs);
}
