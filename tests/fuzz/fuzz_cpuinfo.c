/* Fuzz target: /proc/cpuinfo parsing and the microcode name made from it. */
#include <stddef.h>
#include <stdint.h>

#include "gen/feature/microcode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpu_id cpu;
	char name[128];

	if (microcode_cpuinfo_parse((const char *)data, size, &cpu) == 0)
		microcode_host_name(&cpu, name, sizeof(name));
	return 0;
}
