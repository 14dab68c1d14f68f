/* Fuzz target: kernel uevent messages as read from the netlink socket. */
#include <stdint.h>
#include <string.h>

#include "bootlib/uevent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uevent ev;

	if (uevent_parse((const char *)data, size, &ev) == 0) {
		/* Every field found must be a NUL-terminated string inside the input. */
		const char *fields[] = { ev.action, ev.devpath, ev.subsystem, ev.devname,
					 ev.devtype, ev.modalias };

		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (fields[i] && strlen(fields[i]) >= size)
				__builtin_trap();
	}
	return 0;
}
