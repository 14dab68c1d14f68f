/* fuzz_vmcore: the ELF core reader, the VMCOREINFO parser and the page
 * filter's address translation on arbitrary bytes: no crash, no read out
 * of bounds, only the documented error codes. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kdump/elfcore.h"
#include "kdump/kvmem.h"
#include "kdump/pagefilter.h"
#include "kdump/vmcoreinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const struct elfcore *core)
{
	struct vmcoreinfo vi;
	struct pagefilter pf;
	uint8_t page[4096], bits[4096];

	if (core->vmcoreinfo && vmcoreinfo_parse(core->vmcoreinfo, core->vmcoreinfo_size, &vi) == 0 &&
	    pagefilter_init(&pf, core, &vi, 31) == 0) {
		uint64_t n = pagefilter_chunk_pages(&pf);

		n = n > sizeof(bits) * 8 ? sizeof(bits) * 8 : n;
		memset(bits, 0xff, sizeof(bits));
		pagefilter_apply(&pf, 0, n, bits);
		pagefilter_free(&pf);
	}
	for (size_t i = 0; i < core->nloads && i < 4; i++) {
		int r = elfcore_read_page(core, core->loads[i].paddr & ~4095ULL, page, sizeof(page));

		if (r != 0 && r != -ENOENT && r != -EIO)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfcore core;
	int fd = memfd_create("fuzz", 0);
	int r;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	r = elfcore_open(&core, fd);
	if (r != 0 && r != -ENOEXEC && r != -EINVAL && r != -EIO && r != -ENOMEM)
		abort();
	if (r == 0) {
		exercise(&core);
		elfcore_close(&core);
	}
	close(fd);
	return 0;
}
