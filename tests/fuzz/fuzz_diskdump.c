/* fuzz_diskdump: the kdump-compressed writer on a fuzzed synthetic kernel
 * (tests/unit/kdump_synth.h: page tables, mem_section, struct pages and a
 * printk ring in 64 pages). The input: note changes (vmcoreinfo_input.h)
 * to the synthetic note; a dump level and a flags byte (1 flattened, 2
 * patch the header, 4 LZO pages, bits 3-4: 0 to 3 compressing threads); then
 * patches, each 8 bytes written at a place in the 64 pages (a struct
 * page's flags, a page table entry, the ring's ids) or, with flag 2, in
 * the core's PT_LOAD header. The writer must save the dump or return a
 * documented error; a saved file must fit the size bound the capture
 * checks a target's free space against. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdump/diskdump.h"
#include "kdump/vmcoreinfo_check.h"
#include "tests/fuzz/vmcoreinfo_input.h"
#include "tests/unit/kdump_synth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PATCH_SIZE 10          /* a 2-byte place (in 8-byte words), 8 bytes */
#define PATCHES_MAX 64
#define FLAG_FLAT 1
#define FLAG_PHDR 2
#define FLAG_LZO 4
#define FLAG_THREADS 8     /* and the next bit: 0 to 3 compressing threads */
/* The writers walk every page frame up to the highest range. */
#define WALK_MAX_PADDR (64ULL << 20)

static void patch(struct synth *s, const uint8_t *p, bool phdr)
{
	size_t where = ((size_t)p[0] | (size_t)p[1] << 8) * 8;

	if (phdr)
		where = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) + where % sizeof(Elf64_Phdr);
	else
		where = s->mem_at + where % (PAGES * 4096);
	if (where + 8 <= s->size)
		memcpy(s->buf + where, p + 2, 8);
}

static void dump(const struct elfcore *core, const struct vmcoreinfo *vi, unsigned level, uint8_t flags)
{
	bool flat = flags & FLAG_FLAT;
	struct diskdump_opts opts = { .dump_level = level, .nodename = "fuzz",
				      .compress = (flags & FLAG_LZO) ? COMPRESS_LZO : COMPRESS_ZLIB,
				      .threads = (flags / FLAG_THREADS) & 3 };
	struct diskdump_stats st;
	struct dump_sink sink;
	struct stat sb;
	uint64_t bound = 0;
	int fd = memfd_create("dump", 0), r, rb;

	if (fd < 0)
		abort();
	rb = diskdump_bound(core, vi, level, &bound);
	dump_sink_init(&sink, fd, flat);
	r = dump_sink_begin(&sink);
	if (r == 0)
		r = diskdump_write(core, vi, &sink, &opts, &st);
	if (r == 0)
		r = dump_sink_end(&sink);
	if ((r != 0 && r != -EIO && r != -ENOENT && r != -ENOMEM) || (rb != 0 && rb != -ENOMEM))
		abort();
	/* The bound is what a target's free space is checked against. */
	if (r == 0 && !flat && (fstat(fd, &sb) < 0 || (uint64_t)sb.st_size > bound ||
				st.pages_written + st.pages_zero > st.pages_total))
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char base[sizeof(info) + sizeof(ring_vmcoreinfo) + sizeof(SYNTH_PRB)];
	static char note[sizeof(base) + NOTE_INPUT_MAX + 1];
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	size_t used;
	unsigned level;
	uint8_t flags;
	int fd;

	strcpy(base, info);
	strcat(base, ring_vmcoreinfo);
	strcat(base, SYNTH_PRB);
	used = vmcoreinfo_input(data, size, base, note);
	data += used;
	size -= used;
	if (size < 2)
		return 0;
	level = data[0] & 31;
	flags = data[1];
	data += 2;
	size -= 2;
	synth_build_info(&s, note);
	for (size_t i = 0; i + PATCH_SIZE <= size && i / PATCH_SIZE < PATCHES_MAX; i += PATCH_SIZE)
		patch(&s, data + i, (flags & FLAG_PHDR) && i == 0);
	fd = fixture_memfd(s.buf, s.size);
	if (fd < 0)
		abort();
	if (elfcore_open(&core, fd) == 0) {
		bool have_vi = core.vmcoreinfo &&
			       vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi) == 0;

		if (have_vi)
			elfcore_limit_phys(&core, vmcoreinfo_phys_bits(&vi));
		if (core.max_paddr <= WALK_MAX_PADDR)
			dump(&core, have_vi ? &vi : NULL, level, flags);
		elfcore_close(&core);
	}
	close(fd);
	free(s.buf);
	return 0;
}
