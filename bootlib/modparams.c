/* modparams: MODULE.PARAM=VALUE words of the command line, for the module
 * loader (bootlib/modload.c). */
#include "bootlib/modparams.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/redact.h"

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

bool modparams_is_word(const char *word)
{
	size_t name_len = strcspn(word, "=");
	const char *dot = memchr(word, '.', name_len);
	size_t start, len;

	if (!dot || dot == word || dot + 1 == word + name_len)
		return false;
	if (dot - word == 2 && strncmp(word, "rd", 2) == 0)
		return false;
	return !redact_word_secret(word, &start, &len);
}

int modparams_for(const struct strv *words, const char *module, char **out)
{
	size_t used = 0, n = strlen(module);

	*out = calloc(1, 1);
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < words->len; i++) {
		const char *w = words->items[i];
		size_t len = strlen(w);

		if (!names_module(w, len, module))
			continue;
		if (append(out, &used, w + n + 1, len - n - 1) < 0) {
			free(*out);
			*out = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}
