/* elfcore: the ELF core the kernel shows as /proc/vmcore: its memory ranges
 * (PT_LOAD by physical address), its notes, and the VMCOREINFO note. */
#ifndef LIFEBOAT_KDUMP_ELFCORE_H
#define LIFEBOAT_KDUMP_ELFCORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bounds on what a core may claim, so a corrupt header cannot make the
 * capture allocate without limit. */
#define ELFCORE_MAX_LOADS 4096
#define ELFCORE_MAX_NOTES (16u << 20)
/* No machine the capture runs on has physical addresses of more bits
 * (x86_64 with 5-level paging, arm64 with 52-bit PAs): a range beyond is
 * corrupt, and would make the writers walk every page frame up to it. */
#define ELFCORE_PHYS_BITS 52
/* The dump's page bitmaps (2 bits per page frame up to the highest range,
 * as makedumpfile's format has them) and the writers' walks grow with the
 * highest address, not with the memory: a core may reach at most
 * ELFCORE_SPARSE_RATIO times the bytes its ranges hold (the bitmaps are
 * then at most a quarter of the memory, with 4 KiB pages), or 2^40 (1 TiB:
 * 64 MiB of bitmaps, seconds of walking) for a small core. The highest
 * ranges beyond are corrupt and left out. Real machines stay below:
 * a two-socket arm64 server with its second socket's memory at 2^46 needs
 * 16 GiB to be kept whole. */
#define ELFCORE_SPARSE_RATIO 4096
#define ELFCORE_SPARSE_FLOOR_BITS 40

struct core_load {
	uint64_t paddr, vaddr, offset, filesz, memsz;
};

/* A read-only mapping of part of the core, moved as reads go on. */
struct core_window {
	const uint8_t *at;              /* NULL: none yet, or mapping failed */
	uint64_t off, len;
};

/* Two windows: the pages being written move through one, the kernel's own
 * structures the filter reads between them (mem_map, page tables) through
 * the other, so neither stream moves the other's window. */
struct core_windows {
	struct core_window data, kernel;
	uint64_t file_size;
	int failed;                     /* the file cannot be mapped: pread only */
};

struct elfcore {
	int fd;
	struct core_windows *win;       /* memory reads go through them */
	uint16_t machine;               /* e_machine: EM_X86_64, ... */
	size_t nloads;
	struct core_load *loads;        /* in header order */
	char *notes;                    /* every PT_NOTE segment, concatenated */
	size_t notes_size;
	const char *vmcoreinfo;         /* inside notes; NULL if absent */
	size_t vmcoreinfo_size;
	unsigned nr_cpus;               /* NT_PRSTATUS notes */
	uint64_t max_paddr;             /* end of the highest range */
	/* PT_LOADs left out as corrupt (their bytes past the file's end, more
	 * file than memory, beyond the physical address bits, far above the
	 * memory the others hold), for the message; the first one's header. */
	size_t loads_skipped;
	struct core_load first_skipped;
	unsigned phys_bits;             /* the bound they were checked against */
};

/* Read the headers and notes of the core open on fd (which stays the
 * caller's). Returns 0, -ENOEXEC if it is not a 64-bit little-endian ELF
 * core, -EINVAL if its headers are inconsistent, -errno on read failure.
 * A corrupt PT_LOAD does not fail the open: it is left out and counted
 * (ELFCORE_SPARSE_RATIO included). */
int elfcore_open(struct elfcore *core, int fd);
void elfcore_close(struct elfcore *core);

/* Leave out the ranges that end beyond 2^bits (the note's
 * NUMBER(MAX_PHYSMEM_BITS)), then those the rest makes too sparse
 * (ELFCORE_SPARSE_RATIO); bits 0 or above ELFCORE_PHYS_BITS changes
 * nothing. Returns how many were left out for the bits. */
size_t elfcore_limit_phys(struct elfcore *core, unsigned bits);

/* Copy len bytes of physical memory at paddr. Bytes beyond a range's file
 * size read as zero. Returns 0, -ENOENT if paddr is in no range (a hole),
 * -EIO on a short read. The whole span must lie in one range. */
int elfcore_read_phys(const struct elfcore *core, uint64_t paddr, void *buf, size_t len);
/* The same for the crashed kernel's structures (kvmem's reads), through
 * their own window. */
int elfcore_read_kernel(const struct elfcore *core, uint64_t paddr, void *buf, size_t len);

/* The same within the range l (one of core->loads), for ranges that
 * overlap others (the kernel text is also in the direct map). */
int elfcore_read_load(const struct elfcore *core, const struct core_load *l, uint64_t paddr,
		      void *buf, size_t len);

/* Copy one page (page_size bytes at paddr), zero where no range covers it,
 * as the edges of firmware's memory map are not page-aligned. Returns 0,
 * -ENOENT if no byte of it is covered, -EIO on a short read. */
int elfcore_read_page(const struct elfcore *core, uint64_t paddr, void *buf, size_t page_size);

/* Whether the page frame pfn (of page_size bytes) is backed by a range. */
int elfcore_pfn_valid(const struct elfcore *core, uint64_t pfn, uint64_t page_size);
/* Set in bits (bit i is pfn start + i, LSB first) the frames among count
 * from start that elfcore_pfn_valid calls backed, range by range: a hole
 * costs nothing, however large. Other bits are left as they are. */
void elfcore_pfn_mark(const struct elfcore *core, uint64_t start, uint64_t count, uint64_t page_size,
		      uint8_t *bits);
/* The first frame from pfn on that elfcore_pfn_mark would mark;
 * UINT64_MAX if none. */
uint64_t elfcore_next_pfn(const struct elfcore *core, uint64_t pfn, uint64_t page_size);

#endif
