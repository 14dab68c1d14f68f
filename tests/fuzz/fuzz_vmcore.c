/* fuzz_vmcore: the ELF core reader, the VMCOREINFO parser and checks, the
 * page filter's address translation, the printk reader through the core's
 * page tables and the filtered ELF writer, on arbitrary cores and notes.
 * The input: note changes (vmcoreinfo_input.h), as lines appended to the
 * core's own VMCOREINFO, then the core's bytes. No crash, no read out of
 * bounds, only the documented error codes, no walk beyond what the core's
 * ranges allow. */
#include <errno.h>
#include <stdbool.h>
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
#include "kdump/printk.h"
#include "kdump/vmcoreinfo.h"
#include "kdump/vmcoreinfo_check.h"
#include "tests/fuzz/vmcoreinfo_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The writer walks every page of every range: only on small memories. */
#define WRITE_MAX_PADDR (64ULL << 20)
#define NOTE_MAX (ELFCORE_MAX_NOTES + NOTE_INPUT_MAX + 2)

static void write_elf(const struct elfcore *core, const struct vmcoreinfo *vi)
{
	struct elfdump_opts opts = { .dump_level = 31 };
	struct elfdump_stats st;
	int fd, r;

	if (core->max_paddr > WRITE_MAX_PADDR)
		return;
	fd = memfd_create("out", 0);
	if (fd < 0)
		abort();
	r = elfdump_write(core, vi, fd, &opts, &st);
	if (r != 0 && r != -EIO && r != -ENOMEM && r != -ENOENT)
		abort();
	close(fd);
}

static void filter(const struct elfcore *core, const struct vmcoreinfo *vi)
{
	struct pagefilter pf;
	int r = pagefilter_init(&pf, core, vi, 31);

	if (r == 0) {
		uint8_t bits[4096];
		uint64_t n = pagefilter_chunk_pages(&pf);

		n = n > sizeof(bits) * 8 ? sizeof(bits) * 8 : n;
		memset(bits, 0xff, sizeof(bits));
		pagefilter_apply(&pf, 0, n, bits);
	} else if (r != -EOPNOTSUPP && r != -EINVAL && r != -ENOMEM) {
		abort();
	}
	pagefilter_free(&pf);
}

static void dmesg(const struct elfcore *core, const struct vmcoreinfo *vi)
{
	char *text = NULL;
	size_t len;
	int r = printk_read(core, vi, &text, &len);

	if (r == 0 && strlen(text) != len)
		abort();
	if (r != 0 && r != -EOPNOTSUPP && r != -EINVAL && r != -EFAULT && r != -ENOENT &&
	    r != -EIO && r != -ENOMEM)
		abort();
	free(text);
}

static void exercise(struct elfcore *core, const char *lines)
{
	static char note[NOTE_MAX];
	struct vmcoreinfo vi;
	uint8_t page[4096];
	size_t len = core->vmcoreinfo ? core->vmcoreinfo_size : 0;
	bool have_vi;

	memcpy(note, core->vmcoreinfo ? core->vmcoreinfo : "", len);
	note[len] = '\n';
	strcpy(note + len + 1, lines);
	have_vi = vmcoreinfo_parse(note, strlen(note), &vi) == 0;
	if (have_vi) {
		elfcore_limit_phys(core, vmcoreinfo_phys_bits(&vi));
		filter(core, &vi);
		dmesg(core, &vi);
	}
	/* No range may survive beyond the physical address bound. */
	for (size_t i = 0; i < core->nloads; i++)
		if (core->loads[i].paddr + core->loads[i].memsz > 1ULL << ELFCORE_PHYS_BITS)
			abort();
	write_elf(core, have_vi ? &vi : NULL);
	for (size_t i = 0; i < core->nloads && i < 4; i++) {
		int r = elfcore_read_page(core, core->loads[i].paddr & ~4095ULL, page, sizeof(page));

		if (r != 0 && r != -ENOENT && r != -EIO)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char lines[NOTE_INPUT_MAX + 1];
	struct elfcore core;
	size_t used = vmcoreinfo_input(data, size, "", lines);
	int fd = memfd_create("fuzz", 0);
	int r;

	data += used;
	size -= used;
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	r = elfcore_open(&core, fd);
	if (r != 0 && r != -ENOEXEC && r != -EINVAL && r != -EIO && r != -ENOMEM)
		abort();
	if (r == 0) {
		exercise(&core, lines);
		elfcore_close(&core);
	}
	close(fd);
	return 0;
}
