/* fuzz_kdumpconf: the capture settings file and --kdump-target's
 * WHERE[;KEY=FILE]... on arbitrary text; a target that parses must read
 * back the same from what kdump_target_format writes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/kdumpconf.h"

static void target_round_trip(const char *text)
{
	static struct kdump_target t, again;
	static char out[KDUMP_SPEC_MAX + TARGET_FILES * (KDUMP_FILE_MAX + 16)];
	const char *why;

	if (kdump_target_parse(text, &t, &why) < 0 || kdump_target_format(&t, out, sizeof(out)) < 0)
		return;
	if (kdump_target_parse(out, &again, &why) < 0 || memcmp(&t, &again, sizeof(t)) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kdump_conf conf;
	char *text = malloc(size + 1);
	int bad;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	kdump_conf_init(&conf);
	kdump_conf_parse(text, &conf, &bad);
	target_round_trip(text);
	free(text);
	return 0;
}
