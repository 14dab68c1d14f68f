/* elfdump: write the core as an ELF core filtered by a dump level. */
#include "kdump/elfdump.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdump/dumpsink.h"
#include "kdump/pagefilter.h"

#define DATA_BUFFER (256u << 10)
#define PHDR_BATCH 64
#define DEFAULT_PAGE 4096

/* The file: the ELF header, the program headers (the note first), the
 * notes, then from a page boundary each segment's bytes in order. */
struct ewriter {
	const struct elfcore *core;
	const struct vmcoreinfo *vi;
	const struct elfdump_opts *opts;
	struct elfdump_stats *stats;
	struct pagefilter filter;
	bool use_filter;
	uint64_t ps, min_gap, data_start;
	int fd;                        /* -1 in the counting pass */
	struct dump_sink sink;         /* fd, written in place */
	uint8_t *bits, *page, *data;
	/* the segment being built */
	const struct core_load *load;
	bool in_seg;
	uint64_t seg_paddr, seg_end, seg_off, last_kept;
	uint64_t nsegs, cursor;        /* next free file offset for segment data */
	uint64_t pages_done, pages_total;
	uint64_t gap_runs[64], gap_pages[64];  /* pass 1: runs left out, by 2^b <= length */
	uint64_t size_bound;
	/* buffered output: data_len bytes for offset data_at; program headers */
	uint64_t data_at;
	size_t data_len;
	Elf64_Phdr phdrs[PHDR_BATCH];
	size_t nphdrs;
};

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static int data_flush(struct ewriter *w)
{
	int r = w->data_len ? dump_sink_write(&w->sink, w->data_at, w->data, w->data_len) : 0;

	w->data_len = 0;
	return r;
}

/* Queue len bytes for file offset off; a gap before them stays a hole. */
static int data_put(struct ewriter *w, uint64_t off, const void *buf, size_t len)
{
	int r = 0;

	if (w->data_len && (off != w->data_at + w->data_len || w->data_len + len > DATA_BUFFER))
		r = data_flush(w);
	if (w->data_len == 0)
		w->data_at = off;
	memcpy(w->data + w->data_len, buf, len);
	w->data_len += len;
	return r;
}

static uint64_t phdrs_offset(void)
{
	return sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);   /* after the note's */
}

static int phdrs_flush(struct ewriter *w)
{
	uint64_t first = w->nsegs - w->nphdrs;
	int r = w->nphdrs ? dump_sink_write(&w->sink, phdrs_offset() + first * sizeof(Elf64_Phdr),
					    w->phdrs, w->nphdrs * sizeof(Elf64_Phdr)) : 0;

	w->nphdrs = 0;
	return r;
}

/* The segment ends at the last kept page: count it, or write its header. */
static int seg_close(struct ewriter *w)
{
	uint64_t len = w->seg_end - w->seg_paddr;

	if (!w->in_seg)
		return 0;
	w->in_seg = false;
	w->nsegs++;
	w->cursor = w->seg_off + len;
	if (w->fd < 0)
		return 0;
	w->phdrs[w->nphdrs++] = (Elf64_Phdr){
		.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X, .p_offset = w->seg_off,
		.p_vaddr = w->load->vaddr + (w->seg_paddr - w->load->paddr), .p_paddr = w->seg_paddr,
		.p_filesz = len, .p_memsz = len,
	};
	return w->nphdrs == PHDR_BATCH ? phdrs_flush(w) : 0;
}

/* A segment starting at paddr: its file offset keeps paddr's place within
 * a page, so whole pages of zeros are whole blocks of the file, which the
 * filesystem leaves unallocated. */
static void seg_open(struct ewriter *w, uint64_t paddr)
{
	uint64_t base = round_up(w->cursor, w->ps);

	w->in_seg = true;
	w->seg_paddr = paddr;
	w->seg_off = base + paddr % w->ps;
}

static bool is_zero(const uint8_t *p, size_t len)
{
	return p[0] == 0 && memcmp(p, p + 1, len - 1) == 0;
}

/* The bytes of page pfn in the current range, [lo, hi): read and queue
 * them, unless they are zeros the level leaves as a hole. */
static int page_write(struct ewriter *w, uint64_t lo, uint64_t hi)
{
	size_t len = (size_t)(hi - lo);
	int r = elfcore_read_load(w->core, w->load, lo, w->page, len);

	if (r < 0)
		return r;
	if ((w->opts->dump_level & DL_ZERO) && is_zero(w->page, len)) {
		w->stats->pages_zero++;
		return 0;
	}
	w->stats->pages_written++;
	return data_put(w, w->seg_off + (lo - w->seg_paddr), w->page, len);
}

/* Pass 1: a run of len left out pages between two kept ones, by the power
 * of two at or below len. */
static void gap_note(struct ewriter *w, uint64_t len)
{
	unsigned b;

	if (len == 0)
		return;
	b = 63 - (unsigned)__builtin_clzll(len);
	w->gap_runs[b]++;
	w->gap_pages[b] += len;
}

static int page_visit(struct ewriter *w, uint64_t pfn, bool keep)
{
	const struct core_load *l = w->load;
	uint64_t lo = pfn * w->ps, hi = lo + w->ps;

	if (!keep) {
		w->stats->pages_filtered += w->fd >= 0;
		return 0;
	}
	lo = lo < l->paddr ? l->paddr : lo;
	hi = hi > l->paddr + l->memsz ? l->paddr + l->memsz : hi;
	if (w->in_seg && w->fd < 0)
		gap_note(w, pfn - w->last_kept - 1);
	if (w->in_seg && pfn - w->last_kept - 1 >= w->min_gap) {
		int r = seg_close(w);

		if (r < 0)
			return r;
	}
	if (!w->in_seg)
		seg_open(w, lo);
	w->last_kept = pfn;
	w->seg_end = hi;
	return w->fd >= 0 ? page_write(w, lo, hi) : 0;
}

static uint64_t chunk_pages(const struct ewriter *w)
{
	return w->use_filter ? pagefilter_chunk_pages(&w->filter) : 1ULL << 15;
}

/* The pages of chunk [start, start + count) the level keeps, by kind. */
static void chunk_decide(struct ewriter *w, uint64_t start, uint64_t count)
{
	memset(w->bits, 0xff, (size_t)round_up(count, 8) / 8);
	if (w->use_filter)
		pagefilter_apply(&w->filter, start, count, w->bits);
}

static int walk_load(struct ewriter *w, const struct core_load *l)
{
	uint64_t first = l->paddr / w->ps, end = round_up(l->paddr + l->memsz, w->ps) / w->ps;
	uint64_t step = chunk_pages(w);
	int r = 0;

	if (l->memsz == 0)
		return 0;
	w->load = l;
	for (uint64_t start = first / step * step; r == 0 && start < end; start += step) {
		uint64_t count = end - start < step ? end - start : step;
		uint64_t from = start < first ? first : start;

		chunk_decide(w, start, count);
		for (uint64_t pfn = from; r == 0 && pfn < start + count; pfn++)
			r = page_visit(w, pfn, (w->bits[(pfn - start) / 8] >> ((pfn - start) % 8)) & 1);
		w->pages_done += start + count - from;
		if (w->fd >= 0 && w->opts->progress)
			w->opts->progress(w->opts->progress_ctx, w->pages_done, w->pages_total);
	}
	return r == 0 ? seg_close(w) : r;
}

static int walk(struct ewriter *w)
{
	int r = 0;

	w->nsegs = 0;
	w->cursor = w->data_start;
	w->pages_done = 0;
	w->in_seg = false;
	for (size_t i = 0; r == 0 && i < w->core->nloads; i++)
		r = walk_load(w, &w->core->loads[i]);
	return r;
}

static uint64_t headers_size(const struct ewriter *w, uint64_t nsegs)
{
	return phdrs_offset() + nsegs * sizeof(Elf64_Phdr) + w->core->notes_size;
}

static unsigned log2_ceil(uint64_t v)
{
	unsigned b = 0;

	while (b < 63 && (1ULL << b) < v)
		b++;
	return b;
}

/* Pass 1: walk without splitting, noting each run of left out pages
 * between kept ones by its length's power of two. A split at min_gap
 * 2^b then makes one more segment per run in buckets b and up: choose
 * the smallest b at or above the asked gap that stays within the bound,
 * in this one pass however large the machine. */
static int pass_count(struct ewriter *w)
{
	uint64_t max = w->opts->max_segments ? w->opts->max_segments : ELFDUMP_MAX_SEGMENTS;
	uint64_t segs, dropped = 0, unsplit;
	unsigned b;
	int r;

	w->min_gap = UINT64_MAX;
	w->data_start = 0;
	r = walk(w);
	if (r < 0)
		return r;
	unsplit = segs = w->nsegs;
	for (b = log2_ceil(w->opts->min_gap ? w->opts->min_gap : ELFDUMP_MIN_GAP); b < 63; b++) {
		segs = unsplit;
		dropped = 0;
		for (unsigned k = b; k < 64; k++) {
			segs += w->gap_runs[k];
			dropped += w->gap_pages[k];
		}
		if (segs <= max)
			break;
	}
	w->min_gap = 1ULL << b;
	w->nsegs = segs;
	w->data_start = round_up(headers_size(w, segs), w->ps);
	/* An upper bound: each new segment may start up to a page further on. */
	w->size_bound = w->data_start + w->cursor - dropped * w->ps + (segs - unsplit) * w->ps;
	return 0;
}

static int headers_write(struct ewriter *w, uint64_t nsegs)
{
	const struct elfcore *core = w->core;
	Elf64_Ehdr eh = {
		.e_type = ET_CORE, .e_machine = core->machine, .e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = (Elf64_Half)(nsegs + 1),
	};
	Elf64_Phdr note = { .p_type = PT_NOTE, .p_offset = headers_size(w, nsegs) - core->notes_size,
			    .p_filesz = core->notes_size, .p_memsz = core->notes_size };
	int r;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	r = dump_sink_write(&w->sink, 0, &eh, sizeof(eh));
	if (r == 0)
		r = dump_sink_write(&w->sink, sizeof(eh), &note, sizeof(note));
	if (r == 0 && core->notes_size)
		r = dump_sink_write(&w->sink, note.p_offset, core->notes, core->notes_size);
	return r;
}

/* Pass 2: the same walk, now writing; then the headers and the size. */
static int pass_write(struct ewriter *w, int fd)
{
	uint64_t nsegs = w->nsegs;
	int r;

	w->fd = fd;
	dump_sink_init(&w->sink, fd, false);
	r = headers_write(w, nsegs);
	if (r == 0)
		r = walk(w);
	if (r == 0)
		r = data_flush(w);
	if (r == 0)
		r = phdrs_flush(w);
	/* The walk is deterministic: a different count means the core changed. */
	if (r == 0 && w->nsegs != nsegs)
		r = -EIO;
	if (r == 0 && ftruncate(fd, (off_t)w->cursor) < 0)
		r = -errno;
	return r;
}

static int ewriter_open(struct ewriter *w, unsigned level)
{
	w->ps = w->vi ? (uint64_t)w->vi->page_size : DEFAULT_PAGE;
	w->fd = -1;
	if (w->vi && (level & ~(unsigned)DL_ZERO)) {
		int r = pagefilter_init(&w->filter, w->core, w->vi, level);

		if (r == -ENOMEM)
			return r;
		w->use_filter = r == 0;
		if (r < 0)
			pagefilter_free(&w->filter);
	}
	w->bits = malloc((size_t)chunk_pages(w) / 8 + 1);
	w->page = malloc((size_t)w->ps);
	w->data = malloc(DATA_BUFFER);
	if (!w->bits || !w->page || !w->data)
		return -ENOMEM;
	for (size_t i = 0; i < w->core->nloads; i++)
		w->pages_total += round_up(w->core->loads[i].memsz, w->ps) / w->ps;
	return 0;
}

static void ewriter_close(struct ewriter *w)
{
	free(w->bits);
	free(w->page);
	free(w->data);
	if (w->use_filter)
		pagefilter_free(&w->filter);
}

int elfdump_write(const struct elfcore *core, const struct vmcoreinfo *vi, int fd,
		  const struct elfdump_opts *opts, struct elfdump_stats *stats)
{
	struct ewriter w = { .core = core, .vi = vi, .opts = opts, .stats = stats };
	int r;

	memset(stats, 0, sizeof(*stats));
	r = ewriter_open(&w, opts->dump_level);
	if (r == 0)
		r = pass_count(&w);
	if (r == 0)
		r = pass_write(&w, fd);
	stats->segments = w.nsegs;
	stats->min_gap = w.min_gap;
	stats->bytes = w.cursor;
	stats->filtered_by_kind = w.use_filter;
	ewriter_close(&w);
	return r;
}

int elfdump_bound(const struct elfcore *core, const struct vmcoreinfo *vi, unsigned level, uint64_t *bytes)
{
	struct elfdump_opts opts = { .dump_level = level };
	struct elfdump_stats stats = { 0 };
	struct ewriter w = { .core = core, .vi = vi, .opts = &opts, .stats = &stats };
	int r = ewriter_open(&w, level);

	if (r == 0)
		r = pass_count(&w);
	*bytes = w.size_bound;
	ewriter_close(&w);
	return r;
}
