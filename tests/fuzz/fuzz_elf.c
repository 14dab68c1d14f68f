/* fuzz_elf: elf_parse on arbitrary bytes must return 0 or -ENOEXEC, in bounds. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "gen/elf/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_deps d;
	int r = elf_parse(data, size, &d);

	/* Anything else means a case the parser does not classify. */
	if (r != 0 && r != -ENOEXEC && r != -ENOMEM)
		abort();
	if (r == 0)
		elf_deps_free(&d);
	return 0;
}
