/* Fuzz target: rtnetlink link messages (RTM_NEWLINK, RTM_DELLINK) as read
 * from the kernel's socket in the wait for a carrier. */
#include <stdint.h>
#include <string.h>

#include "net/link/linkwatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct link_event ev[4];
	int n = linkwatch_parse(data, size, ev, 4);

	/* Every name kept must be a NUL-terminated interface name. */
	for (int i = 0; i < n && i < 4; i++)
		if (strnlen(ev[i].name, sizeof(ev[i].name)) >= sizeof(ev[i].name))
			__builtin_trap();
	return 0;
}
