/* Fuzz target: the way out's readers of outside text: mountinfo (the
 * mounts left under /oldroot, in their unmount order), its arguments and
 * its kernel command line words. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shutdown/mountlist.h"
#include "shutdown/verb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mount_list list;
	struct shutdown_cmdline words;
	struct shutdown_args args;
	char *text = malloc(size + 1);
	char *argv[3] = { (char *)"/shutdown", text, NULL };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	(void)mountlist_parse(text, "/oldroot", &list);
	for (size_t i = 0; i < list.len; i++)
		if (strncmp(list.items[i].path, "/oldroot", 8) != 0)
			abort();
	shutdown_verb_cmdline_parse(text, &words);
	(void)shutdown_verb_args_parse(2, argv, &args);
	free(text);
	return 0;
}
