/* modparams: MODULE.PARAM=VALUE words of the kernel command line, for the
 * module loader (bootlib/modload.c). */
#include "bootlib/modparams.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cmdwords.h"

/* Does the word's text start with "module." ('-' and '_' alike)? */
static bool names_module(const char *text, size_t len, const char *module)
{
	size_t n = strlen(module);

	if (n == 0 || len <= n + 1 || text[n] != '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = text[i] == '-' ? '_' : text[i];
		char b = module[i] == '-' ? '_' : module[i];

		if (a != b)
			return false;
	}
	return true;
}

/* Append " PARAM=VALUE" (the value quoted when it has a blank). */
static int append(char **out, size_t *used, const char *param, size_t len)
{
	const char *eq = memchr(param, '=', len);
	bool quote = eq && strpbrk(eq, " \t\n") != NULL;
	size_t need = *used + len + 4;
	char *grown = realloc(*out, need);
	int n;

	if (!grown)
		return -ENOMEM;
	*out = grown;
	if (quote)
		n = snprintf(*out + *used, need - *used, "%s%.*s\"%.*s\"", *used ? " " : "",
			     (int)(eq + 1 - param), param, (int)(len - (size_t)(eq + 1 - param)), eq + 1);
	else
		n = snprintf(*out + *used, need - *used, "%s%.*s", *used ? " " : "", (int)len, param);
	*used += (size_t)n;
	return 0;
}

int modparams_from_cmdline(const char *cmdline, const char *module, char **out)
{
	static struct cmdword w;   /* 4 KiB: not on PID 1's stack */
	const char *pos = cmdline;
	size_t used = 0, n = strlen(module);

	*out = calloc(1, 1);
	if (!*out)
		return -ENOMEM;
	while (pos && cmdwords_next(&pos, &w)) {
		/* A cut word would hand the module a wrong value: left out. */
		if (w.cut || !names_module(w.text, w.len, module))
			continue;
		if (append(out, &used, w.text + n + 1, w.len - n - 1) < 0) {
			free(*out);
			*out = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}
