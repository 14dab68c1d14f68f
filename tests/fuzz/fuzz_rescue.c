/* Fuzz target: rescue's parsers of outside input: the built-in prompt's
 * lines, rd.break stage names, busybox applet tables, /etc/shadow. The first
 * byte picks the parser, the rest is its input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/stage.h"
#include "gen/elf/applets.h"
#include "gen/host/shadow.h"
#include "rescue/prompt.h"

static void fuzz_text(const uint8_t *data, size_t size, int which)
{
	char *text = malloc(size + 1);

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	if (which == 0)
		prompt_parse(text);
	else
		stage_parse(text);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strv applets = STRV_INIT;
	char hash[128];

	if (size == 0)
		return 0;
	switch (data[0] % 4) {
	case 0:
	case 1:
		fuzz_text(data + 1, size - 1, data[0] % 4);
		break;
	case 2:
		/* The exact length, so reads past the end are caught. */
		applets_parse(data + 1, size - 1, &applets);
		strv_free(&applets);
		break;
	default:
		shadow_root_hash((const char *)data + 1, size - 1, hash, sizeof(hash));
		break;
	}
	return 0;
}
