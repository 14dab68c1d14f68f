/* Fuzz target: /sys/class/tty/console/active, the consoles a prompt is shown on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/console.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char names[CONSOLE_MAX][CONSOLE_NAME_MAX];
	char *text = malloc(size + 1);
	size_t n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	n = console_active_parse(text, names, CONSOLE_MAX);
	if (n > CONSOLE_MAX)
		__builtin_trap();
	/* Every name is a plain, non-empty name under /dev. */
	for (size_t i = 0; i < n; i++) {
		size_t len = strnlen(names[i], CONSOLE_NAME_MAX);

		if (len == 0 || len >= CONSOLE_NAME_MAX || strpbrk(names[i], "/. \n"))
			__builtin_trap();
	}
	free(text);
	return 0;
}
