/* Fuzz target: a keyscript's argument and environment made from the
 * image's crypttab lines (blockstack/keyscript_env.c): every line parsed
 * gives a terminated envp of NAME=VALUE words, each name once, or -E2BIG;
 * the octal decoding of any field stays within its buffer. Each line is
 * also a filesystem label (a key stick's, outside input) made into a
 * /dev/disk link's name (blockstack/devlinks.c): never a path. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/devlinks.h"
#include "blockstack/keyscript_env.h"
#include "common/crypttab.h"

static void check(const struct keyscript_env *env)
{
	if (env->envp[env->n_env] || !env->argv[0] || !env->argv[1] || env->argv[2])
		abort();
	for (size_t i = 0; i < env->n_env; i++) {
		size_t name = strcspn(env->envp[i], "=");

		if (!env->envp[i][name] || !name)
			abort();
		for (size_t j = i + 1; j < env->n_env; j++)
			if (strncmp(env->envp[i], env->envp[j], name + 1) == 0)
				abort();
	}
}

static void line_env(const char *line)
{
	static struct keyscript_env env;
	struct crypttab_entry e;
	struct keyscript_line l;
	char small[5], link[64];

	keyscript_decode(line, small, sizeof(small));
	if (devlinks_encode(line, link, sizeof(link)) &&
	    (strchr(link, '/') || !strcmp(link, ".") || !strcmp(link, "..") || !link[0]))
		abort();
	if (crypttab_parse_line(line, &e) != 1)
		return;
	l = (struct keyscript_line){ e.name, e.source, "/dev/vda", e.keyfile, e.options };
	if (keyscript_env_make(&env, "/lib/cryptsetup/scripts/k", &l, 3) == 0)
		check(&env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *at;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (at = text; *at;) {
		size_t len = strcspn(at, "\n");
		char saved = at[len];

		at[len] = '\0';
		line_env(at);
		at[len] = saved;
		at += len + (saved == '\n');
	}
	free(text);
	return 0;
}
