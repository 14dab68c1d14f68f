/* Fuzz target: a process's /proc/PID/stat (bootlib/procstat.c), whose
 * name field any process chooses: what the init's sweep before
 * switch_root and remote/proctree.c read. A parsed line keeps its
 * fields in their ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct procstat st;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (procstat_parse(text, &st) == 0 &&
	    (st.pid < 0 || st.ppid < 0 || st.state == ' ' || st.state == '\0' ||
	     st.flags > 0xffffffffUL))
		__builtin_trap();
	procstat_is_pid_name(text);
	free(text);
	return 0;
}
