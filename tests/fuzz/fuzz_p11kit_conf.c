/* Fuzz target: a p11-kit module file as the PKCS#11 packer reads it
 * (gen/feature/p11kit_conf.c): any text gives a terminated module path
 * that fits, or none. */
#include <stdint.h>
#include <string.h>

#include "gen/feature/p11kit_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p11kit_module m;
	int r = p11kit_conf_parse((const char *)data, size, &m);

	if (strnlen(m.module, sizeof(m.module)) >= sizeof(m.module))
		__builtin_trap();
	if (r == 0 && !m.module[0])
		__builtin_trap();
	(void)p11kit_conf_wanted(&m);
	return 0;
}
