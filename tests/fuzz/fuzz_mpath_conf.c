/* Fuzz target: blockstack/mpath.c's reading of a multipath.conf (the
 * host's, put into a host-only image) and of a wwids file: any text gives
 * a bound within an hour, or none. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/mpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	long ms;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ms = mpath_conf_hold_ms(text);
	if (ms != -1 && (ms < 1000 || ms > 3600L * 1000))
		__builtin_trap();
	mpath_wwids_has(text, "35000c500a1b2c3d4");
	free(text);
	return 0;
}
