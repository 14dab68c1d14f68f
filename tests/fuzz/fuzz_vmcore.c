/* fuzz_vmcore: the ELF core reader, the VMCOREINFO parser, the page
 * filter's address translation and the filtered ELF writer on arbitrary
 * bytes: no crash, no read out of bounds, only the documented error codes. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kdump/elfcore.h"
#include "kdump/elfdump.h"
#include "kdump/kvmem.h"
#include "kdump/pagefilter.h"
#include "kdump/vmcoreinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The writer walks every page of every range: only on small memories. */
#define WRITE_MAX_PADDR (64ULL << 20)

static void write_elf(const struct elfcore *core, const struct vmcoreinfo *vi)
{
	struct elfdump_opts opts = { .dump_level = 31 };
	struct elfdump_stats st;
	int fd, r;

	for (size_t i = 0; i < core->nloads; i++)
		if (core->loads[i].paddr + core->loads[i].memsz > WRITE_MAX_PADDR)
			return;
	fd = memfd_create("out", 0);
	if (fd < 0)
		abort();
	r = elfdump_write(core, vi, fd, &opts, &st);
	if (r != 0 && r != -EIO && r != -ENOMEM && r != -ENOENT)
		abort();
	close(fd);
}

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
	write_elf(core, core->vmcoreinfo && vmcoreinfo_parse(core->vmcoreinfo, core->vmcoreinfo_size, &vi) == 0
			? &vi : NULL);
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
