/* fuzz_uki: arbitrary bytes as the EFI stub of a unified kernel image.
 * uki_assemble must refuse (-ENOEXEC, -EINVAL, -EFBIG, -ENOMEM) or give an
 * image whose headers read back with the sections added. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "gen/uki/pe.h"
#include "gen/uki/uki.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t bytes[] = "section bytes";
	const struct uki_section secs[] = {
		{ ".cmdline", bytes, 8 }, { ".initrd", bytes, sizeof(bytes) }, { ".linux", bytes, 3 },
	};
	struct pe_layout in, out;
	const char *why = NULL;
	uint8_t *img = NULL;
	size_t len = 0;
	int r = uki_assemble(data, size, secs, 3, &img, &len, &why);

	if (r != 0) {
		if ((r != -ENOEXEC && r != -EINVAL && r != -EFBIG && r != -ENOMEM) || !why || img)
			abort();
		return 0;
	}
	if (pe_layout_read(data, size, &in, &why) != 0 || pe_layout_read(img, len, &out, &why) != 0 ||
	    out.n_sections != in.n_sections + 3 || out.raw_end != len)
		abort();
	free(img);
	return 0;
}
