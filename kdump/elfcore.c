/* elfcore: the ELF core the kernel shows as /proc/vmcore: its memory ranges
 * (PT_LOAD by physical address), its notes, and the VMCOREINFO note. */
#include "kdump/elfcore.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileread.h"

static int read_full(int fd, uint64_t off, void *buf, size_t len)
{
	ssize_t n;

	/* An offset no file can have is a corrupt header: a short read. */
	if (off > (uint64_t)INT64_MAX - len)
		return -EIO;
	n = file_read_fd_at(fd, buf, len, off);
	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;
}

/* Memory is read through 4 MiB windows mapped from the core (the size
 * makedumpfile maps), as a read call per page costs more than the copy in
 * the capture kernel, and each move of a window is an munmap with its TLB
 * flush (1 MiB took 0.04 s more system time on a 512 MB guest's core);
 * reads that could pass the file's end use pread, which reports a short
 * file. The mapping of /proc/vmcore is of the crashed kernel's memory, not
 * of the capture's, so it does not count against the capture's memory. */
#define WINDOW (4u << 20)

static int window_move(const struct elfcore *core, struct core_window *w, uint64_t off)
{
	uint64_t file_size = core->win->file_size;
	uint64_t start = off & ~(uint64_t)(WINDOW / 2 - 1);
	uint64_t len = file_size - start < WINDOW ? file_size - start : WINDOW;
	void *at;

	if (w->at)
		munmap((void *)w->at, w->len);
	w->at = NULL;
	at = mmap(NULL, len, PROT_READ, MAP_PRIVATE, core->fd, (off_t)start);
	if (at == MAP_FAILED) {
		core->win->failed = 1;
		return -errno;
	}
	w->at = at;
	w->off = start;
	w->len = len;
	return 0;
}

static int read_data(const struct elfcore *core, bool kernel, uint64_t off, void *buf, size_t len)
{
	struct core_windows *ws = core->win;
	struct core_window *w;

	if (!ws || ws->failed || len > WINDOW / 2 || off > ws->file_size || ws->file_size - off < len)
		return read_full(core->fd, off, buf, len);
	w = kernel ? &ws->kernel : &ws->data;
	if ((!w->at || off < w->off || off + len > w->off + w->len) && window_move(core, w, off) < 0)
		return read_full(core->fd, off, buf, len);
	memcpy(buf, w->at + (off - w->off), len);
	return 0;
}

static void window_open(struct elfcore *core)
{
	struct stat st;

	core->win = calloc(1, sizeof(*core->win));
	if (core->win && fstat(core->fd, &st) == 0 && st.st_size > 0)
		core->win->file_size = (uint64_t)st.st_size;
	else if (core->win)
		core->win->failed = 1;
}

static void window_close(struct core_window *w)
{
	if (w->at)
		munmap((void *)w->at, w->len);
}

static int check_ehdr(const Elf64_Ehdr *eh)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_CORE)
		return -ENOEXEC;
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
	    eh->e_phnum > ELFCORE_MAX_LOADS)
		return -EINVAL;
	return 0;
}

/* Walk the notes: find VMCOREINFO and count the CPUs' register notes. */
static void scan_notes(struct elfcore *core)
{
	size_t pos = 0;

	while (core->notes_size - pos >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t name_len, desc_len, desc_at;

		memcpy(&nh, core->notes + pos, sizeof(nh));
		name_len = ((size_t)nh.n_namesz + 3) & ~(size_t)3;
		desc_len = ((size_t)nh.n_descsz + 3) & ~(size_t)3;
		desc_at = pos + sizeof(nh) + name_len;
		if (nh.n_namesz > ELFCORE_MAX_NOTES || nh.n_descsz > ELFCORE_MAX_NOTES ||
		    desc_at > core->notes_size || core->notes_size - desc_at < nh.n_descsz)
			return;
		if (nh.n_namesz == 11 && memcmp(core->notes + pos + sizeof(nh), "VMCOREINFO", 11) == 0) {
			core->vmcoreinfo = core->notes + desc_at;
			core->vmcoreinfo_size = nh.n_descsz;
		} else if (nh.n_type == NT_PRSTATUS) {
			core->nr_cpus++;
		}
		if (core->notes_size - desc_at < desc_len)
			return;
		pos = desc_at + desc_len;
	}
}

static int add_note(struct elfcore *core, const Elf64_Phdr *ph)
{
	char *grown;
	int r;

	if (ph->p_filesz > ELFCORE_MAX_NOTES - core->notes_size)
		return -EINVAL;
	grown = realloc(core->notes, core->notes_size + ph->p_filesz + 1);
	if (!grown)
		return -ENOMEM;
	core->notes = grown;
	r = read_full(core->fd, ph->p_offset, core->notes + core->notes_size, ph->p_filesz);
	if (r < 0)
		return r;
	core->notes_size += ph->p_filesz;
	return 0;
}

static void load_skip(struct elfcore *core, const struct core_load *l)
{
	if (core->loads_skipped++ == 0)
		core->first_skipped = *l;
}

/* A range that cannot be what it says is left out, not trusted: its file
 * bytes must be in the file, and its memory within the physical address
 * space (every page frame up to the highest range is walked). */
static void add_load(struct elfcore *core, const Elf64_Phdr *ph, uint64_t file_size)
{
	struct core_load l = { ph->p_paddr, ph->p_vaddr, ph->p_offset, ph->p_filesz, ph->p_memsz };
	uint64_t phys_end = 1ULL << ELFCORE_PHYS_BITS;

	if (l.filesz > l.memsz || l.paddr > phys_end || l.memsz > phys_end - l.paddr ||
	    l.offset > UINT64_MAX - l.filesz || (file_size && l.offset + l.filesz > file_size)) {
		load_skip(core, &l);
		return;
	}
	core->loads[core->nloads++] = l;
	if (l.paddr + l.memsz > core->max_paddr)
		core->max_paddr = l.paddr + l.memsz;
}

static uint64_t load_end(const struct core_load *l)
{
	return l->paddr + l->memsz;
}

/* The highest address a core holding held bytes may reach: the work and
 * the bitmaps grow with it, the dump's worth with held. */
static uint64_t sparse_limit(uint64_t held)
{
	uint64_t floor = 1ULL << ELFCORE_SPARSE_FLOOR_BITS;

	if (held > (1ULL << ELFCORE_PHYS_BITS) / ELFCORE_SPARSE_RATIO)
		return 1ULL << ELFCORE_PHYS_BITS;
	return held * ELFCORE_SPARSE_RATIO > floor ? held * ELFCORE_SPARSE_RATIO : floor;
}

/* Leave out the highest range while the core reaches beyond sparse_limit
 * of what its ranges hold: a range far above all the memory there is is a
 * corrupt header, not memory. */
static void trim_sparse(struct elfcore *core)
{
	for (;;) {
		uint64_t held = 0;
		size_t top = 0;

		for (size_t i = 0; i < core->nloads; i++) {
			if (held < 1ULL << ELFCORE_PHYS_BITS)   /* no overflow: each is <= 2^52 */
				held += core->loads[i].memsz;
			if (load_end(&core->loads[i]) > load_end(&core->loads[top]))
				top = i;
		}
		if (core->max_paddr <= sparse_limit(held))
			return;
		load_skip(core, &core->loads[top]);
		memmove(&core->loads[top], &core->loads[top + 1],
			(core->nloads - top - 1) * sizeof(core->loads[0]));
		core->nloads--;
		core->max_paddr = 0;
		for (size_t i = 0; i < core->nloads; i++)
			if (load_end(&core->loads[i]) > core->max_paddr)
				core->max_paddr = load_end(&core->loads[i]);
	}
}

size_t elfcore_limit_phys(struct elfcore *core, unsigned bits)
{
	size_t kept = 0, skipped = 0;

	if (bits == 0 || bits >= ELFCORE_PHYS_BITS)
		return 0;
	core->phys_bits = bits;
	core->max_paddr = 0;
	for (size_t i = 0; i < core->nloads; i++) {
		const struct core_load *l = &core->loads[i];

		if (l->paddr + l->memsz > 1ULL << bits) {
			load_skip(core, l);
			skipped++;
			continue;
		}
		core->loads[kept++] = *l;
		if (l->paddr + l->memsz > core->max_paddr)
			core->max_paddr = l->paddr + l->memsz;
	}
	core->nloads = kept;
	trim_sparse(core);
	return skipped;
}

static int read_phdrs(struct elfcore *core, const Elf64_Ehdr *eh)
{
	size_t size = (size_t)eh->e_phnum * sizeof(Elf64_Phdr);
	Elf64_Phdr *ph = malloc(size);
	struct stat st;
	uint64_t file_size = 0;
	int r;

	if (!ph)
		return -ENOMEM;
	/* /proc/vmcore has its size; a file whose size is unknown is not checked. */
	if (fstat(core->fd, &st) == 0 && st.st_size > 0)
		file_size = (uint64_t)st.st_size;
	r = read_full(core->fd, eh->e_phoff, ph, size);
	core->loads = calloc(eh->e_phnum, sizeof(*core->loads));
	if (r == 0 && !core->loads)
		r = -ENOMEM;
	for (unsigned i = 0; r == 0 && i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_NOTE)
			r = add_note(core, &ph[i]);
		else if (ph[i].p_type == PT_LOAD)
			add_load(core, &ph[i], file_size);
	}
	trim_sparse(core);
	free(ph);
	return r;
}

int elfcore_open(struct elfcore *core, int fd)
{
	Elf64_Ehdr eh;
	int r;

	memset(core, 0, sizeof(*core));
	core->fd = fd;
	core->phys_bits = ELFCORE_PHYS_BITS;
	r = read_full(fd, 0, &eh, sizeof(eh));
	if (r == -EIO)
		return -ENOEXEC;
	if (r == 0)
		r = check_ehdr(&eh);
	if (r == 0)
		r = read_phdrs(core, &eh);
	if (r < 0) {
		elfcore_close(core);
		return r;
	}
	core->machine = eh.e_machine;
	scan_notes(core);
	window_open(core);
	return 0;
}

void elfcore_close(struct elfcore *core)
{
	if (core->win) {
		window_close(&core->win->data);
		window_close(&core->win->kernel);
	}
	free(core->win);
	core->win = NULL;
	free(core->loads);
	free(core->notes);
	core->loads = NULL;
	core->notes = NULL;
	core->nloads = core->notes_size = 0;
	core->vmcoreinfo = NULL;
}

static const struct core_load *find_load(const struct elfcore *core, uint64_t paddr)
{
	for (size_t i = 0; i < core->nloads; i++) {
		const struct core_load *l = &core->loads[i];

		if (paddr >= l->paddr && paddr - l->paddr < l->memsz)
			return l;
	}
	return NULL;
}

static int load_read(const struct elfcore *core, const struct core_load *l, uint64_t paddr, void *buf,
		     size_t len, bool kernel)
{
	uint64_t rel, in_file;

	if (paddr < l->paddr || paddr - l->paddr >= l->memsz)
		return -ENOENT;
	rel = paddr - l->paddr;
	if (len > l->memsz - rel)
		return -ENOENT;
	in_file = rel < l->filesz ? l->filesz - rel : 0;
	if (in_file > len)
		in_file = len;
	memset((char *)buf + in_file, 0, len - in_file);
	return in_file ? read_data(core, kernel, l->offset + rel, buf, (size_t)in_file) : 0;
}

int elfcore_read_phys(const struct elfcore *core, uint64_t paddr, void *buf, size_t len)
{
	const struct core_load *l = find_load(core, paddr);

	return l ? load_read(core, l, paddr, buf, len, false) : -ENOENT;
}

int elfcore_read_kernel(const struct elfcore *core, uint64_t paddr, void *buf, size_t len)
{
	const struct core_load *l = find_load(core, paddr);

	return l ? load_read(core, l, paddr, buf, len, true) : -ENOENT;
}

int elfcore_read_load(const struct elfcore *core, const struct core_load *l, uint64_t paddr,
		      void *buf, size_t len)
{
	return load_read(core, l, paddr, buf, len, false);
}

int elfcore_read_page(const struct elfcore *core, uint64_t paddr, void *buf, size_t page_size)
{
	const struct core_load *l;
	int r = elfcore_read_phys(core, paddr, buf, page_size);
	bool covered = false;

	if (r != -ENOENT)
		return r;
	memset(buf, 0, page_size);
	/* Rare: a page only partly in a range. Copy byte runs range by range. */
	for (size_t i = 0; i < core->nloads; i++) {
		uint64_t from, to;

		l = &core->loads[i];
		from = l->paddr > paddr ? l->paddr : paddr;
		to = l->paddr + l->memsz < paddr + page_size ? l->paddr + l->memsz : paddr + page_size;
		if (from >= to)
			continue;
		/* This range's bytes: the first range holding from may end sooner. */
		r = elfcore_read_load(core, l, from, (char *)buf + (from - paddr), (size_t)(to - from));
		if (r < 0)
			return r;
		covered = true;
	}
	return covered ? 0 : -ENOENT;
}

static bool pfn_in_load(const struct core_load *l, uint64_t start, uint64_t end)
{
	return start < l->paddr + l->memsz && end > l->paddr;
}

int elfcore_pfn_valid(const struct elfcore *core, uint64_t pfn, uint64_t page_size)
{
	for (size_t i = 0; i < core->nloads; i++)
		if (pfn_in_load(&core->loads[i], pfn * page_size, (pfn + 1) * page_size))
			return 1;
	return 0;
}

/* The frames [*lo, *hi) the range touches; an empty range touches the one
 * it lies inside, unless it sits on a frame's edge. */
static void load_frames(const struct core_load *l, uint64_t page_size, uint64_t *lo, uint64_t *hi)
{
	*lo = l->paddr / page_size;
	if (l->memsz)
		*hi = (l->paddr + l->memsz - 1) / page_size + 1;
	else
		*hi = (l->paddr % page_size) != 0 ? *lo + 1 : *lo;
}

void elfcore_pfn_mark(const struct elfcore *core, uint64_t start, uint64_t count, uint64_t page_size,
		      uint8_t *bits)
{
	for (size_t i = 0; i < core->nloads; i++) {
		uint64_t lo, hi;

		load_frames(&core->loads[i], page_size, &lo, &hi);
		lo = lo > start ? lo : start;
		hi = hi < start + count ? hi : start + count;
		for (uint64_t pfn = lo; pfn < hi; pfn++)
			bits[(pfn - start) / 8] |= (uint8_t)(1u << ((pfn - start) % 8));
	}
}

uint64_t elfcore_next_pfn(const struct elfcore *core, uint64_t pfn, uint64_t page_size)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < core->nloads; i++) {
		uint64_t lo, hi;

		load_frames(&core->loads[i], page_size, &lo, &hi);
		if (hi <= pfn || lo >= hi)
			continue;
		lo = lo > pfn ? lo : pfn;
		next = lo < next ? lo : next;
	}
	return next;
}
