/* Fuzz target: the shell gate's facts a login over SSH reads
 * (bootlib/shellstate.c): parsed, formatted again, parsed the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/shellstate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shell_state st, again;
	char *text = malloc(size + 1), line[96];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (shell_state_parse(text, &st) == 0) {
		shell_state_format(&st, line, sizeof(line));
		if (shell_state_parse(line, &again) != 0 || again.shell != st.shell ||
		    again.cause != st.cause || again.console_pid != st.console_pid)
			__builtin_trap();
	} else if (st.shell) {
		__builtin_trap();   /* a malformed file opens nothing */
	}
	free(text);
	return 0;
}
