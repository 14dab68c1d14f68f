/* modtab: the module table the generator writes and the init reads.
 *
 * A text file, one record a line, fields separated by a single tab:
 *
 *   m NAME PATH DEPS OPTIONS   a module: its file in the image, the names of
 *                              the modules it needs loaded first (comma list,
 *                              "-" for none) and its parameters ("" for none;
 *                              may contain spaces, it is the rest of the line)
 *   s NAME PRE POST            softdeps: comma lists ("-" for none)
 *   a PATTERN NAME             an alias pattern (fnmatch) resolving to NAME
 *   b NAME                     blacklisted: never loaded through an alias
 *
 * Lines starting with '#' are comments. Built-in modules never appear. The
 * file is written sorted so images are reproducible.
 */
#ifndef LIFEBOAT_MODTAB_H
#define LIFEBOAT_MODTAB_H

#include <stdbool.h>
#include <stddef.h>

#define MODTAB_PATH "/lib/lifeboat/modules.tab"

struct modtab_module {
	char *name;
	char *path;
	char **deps;      /* NULL-terminated */
	char **pre;       /* softdep pre, NULL-terminated */
	char **post;      /* softdep post, NULL-terminated */
	char *options;
	bool blacklisted;
	bool loaded;      /* used by the loader */
};

struct modtab_alias {
	char *pattern;
	size_t literal_len;  /* bytes before the first glob character */
	char *module;
};

struct modtab {
	struct modtab_module *mods;
	size_t n_mods;
	struct modtab_alias *aliases;
	size_t n_aliases;
};

/* Whether the init should load what a device's modalias asks for. CPU
 * feature modaliases ("cpu:type:x86,...") are skipped: they load crypto and
 * checksum accelerators (aesni_intel runs its self-tests for a noticeable
 * part of a second under emulation) that no root device needs to appear;
 * the real root's udev loads them, and a block stack that needs them loads
 * them by name. */
bool modtab_modalias_wanted(const char *modalias);

/* Parse a table from memory. Malformed lines are an error (-EINVAL) with
 * *bad_line set to the 1-based line number. */
int modtab_parse(const char *text, size_t len, struct modtab *out, size_t *bad_line);
void modtab_free(struct modtab *t);
struct modtab_module *modtab_find(const struct modtab *t, const char *name);
/* Call fn for every module whose alias pattern matches modalias; stops and
 * returns fn's value when it is non-zero. */
int modtab_match(const struct modtab *t, const char *modalias,
		 int (*fn)(struct modtab_module *m, void *ctx), void *ctx);

#endif
