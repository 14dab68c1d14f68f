/* Fuzz target: the module table parser and alias matching on arbitrary input.
 * The input is split at its first newline-terminated line starting with
 * "?": text before it is the table, that line's rest the modalias to match. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/modtab.h"

static int count_match(struct modtab_module *m, void *ctx)
{
	size_t *n = ctx;

	/* Touch what the loader reads. */
	*n += strlen(m->name) + strlen(m->path) + (m->deps[0] != NULL) + (m->pre[0] != NULL) +
	      (m->post[0] != NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *q = memmem(text, size, "\n?", 2);
	size_t table_len = q ? (size_t)(q - text) + 1 : size;
	char modalias[256] = "pci:v00001AF4d00001042sv00001AF4sd00001042bc01sc80i00";
	struct modtab t;
	size_t bad, n = 0;

	if (q) {
		size_t len = size - table_len - 1;

		if (len >= sizeof(modalias))
			len = sizeof(modalias) - 1;
		memcpy(modalias, q + 2, len);
		modalias[len] = '\0';
	}
	if (modtab_parse(text, table_len, &t, &bad) != 0)
		return 0;
	modtab_match(&t, modalias, count_match, &n);
	for (size_t i = 0; i < t.n_mods; i++)
		modtab_find(&t, t.mods[i].name);
	modtab_free(&t);
	return 0;
}
