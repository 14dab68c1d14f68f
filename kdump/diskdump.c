/* diskdump: write a core in makedumpfile's kdump-compressed format. */
#include "kdump/diskdump.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "kdump/pagefilter.h"
#include "kdump/pagepool.h"

#define UTS_LEN 65
#define DATA_BUFFER (256u << 10)
#define DESC_BATCH 512

/* Where each part of the dump lies; see the layout in diskdump.h. */
struct layout {
	uint64_t block, max_mapnr, sub_blocks, bitmap_bytes;
	uint64_t bitmap1, bitmap2, descs;
};

struct writer {
	const struct elfcore *core;
	const struct vmcoreinfo *vi;
	struct dump_sink *sink;
	const struct diskdump_opts *opts;
	struct diskdump_stats *stats;
	struct pagefilter filter;
	bool use_filter;
	struct layout lay;
	struct pagepool pool;
	bool pool_open;
	uint8_t *data, *bits, *descs;
	size_t data_len, ndescs;
	uint64_t data_off, desc_index, zero_desc_off;
	bool zero_written;
};

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static void layout_compute(struct layout *l, const struct elfcore *core, uint64_t block)
{
	l->block = block;
	l->max_mapnr = round_up(core->max_paddr, block) / block;
	l->sub_blocks = round_up(DISKDUMP_SUBHDR_SIZE + core->notes_size, block) / block;
	l->bitmap_bytes = round_up(round_up(l->max_mapnr, 8) / 8, block);
	l->bitmap1 = (1 + l->sub_blocks) * block;
	l->bitmap2 = l->bitmap1 + l->bitmap_bytes;
	l->descs = l->bitmap2 + l->bitmap_bytes;
}

/* The utsname: "Linux", the node, the release from VMCOREINFO, the machine. */
static void header_utsname(uint8_t *uts, const struct writer *w)
{
	const char *fields[6] = { "Linux", w->opts->nodename ? w->opts->nodename : "",
				  w->vi ? w->vi->osrelease : "", "",
				  w->core->machine == EM_X86_64 ? "x86_64" : "", "" };

	for (int i = 0; i < 6; i++)
		strncpy((char *)uts + i * UTS_LEN, fields[i], UTS_LEN - 1);
}

static int header_write(struct writer *w, uint32_t status)
{
	const struct layout *l = &w->lay;
	uint8_t *h = calloc(1, l->block);
	struct timeval tv;
	int r;

	if (!h)
		return -ENOMEM;
	gettimeofday(&tv, NULL);
	memcpy(h, "KDUMP   ", 8);
	put_le32(h + 8, DISKDUMP_HEADER_VERSION);
	header_utsname(h + 12, w);
	put_le64(h + 408, (uint64_t)tv.tv_sec);      /* struct timeval, 8-aligned */
	put_le64(h + 416, (uint64_t)tv.tv_usec);
	put_le32(h + 424, status);
	put_le32(h + 428, (uint32_t)l->block);
	put_le32(h + 432, (uint32_t)l->sub_blocks);
	put_le32(h + 436, (uint32_t)(2 * l->bitmap_bytes / l->block));
	put_le32(h + 440, l->max_mapnr > UINT32_MAX ? UINT32_MAX : (uint32_t)l->max_mapnr);
	put_le32(h + 444, (uint32_t)w->stats->pages_total);   /* total_ram_blocks */
	put_le32(h + 452, (uint32_t)w->stats->pages_written); /* written_blocks */
	put_le32(h + 460, w->core->nr_cpus ? w->core->nr_cpus : 1);
	r = dump_sink_write(w->sink, 0, h, l->block);
	free(h);
	return r;
}

/* The sub header, followed in the same blocks by the core's notes. */
static int subheader_write(struct writer *w)
{
	const struct layout *l = &w->lay;
	uint64_t notes_at = l->block + DISKDUMP_SUBHDR_SIZE;
	uint8_t *s = calloc(1, l->sub_blocks * l->block);
	int64_t phys_base = w->vi && w->vi->phys_base != VI_UNSET ? w->vi->phys_base : 0;
	int r;

	if (!s)
		return -ENOMEM;
	put_le64(s, (uint64_t)phys_base);
	put_le32(s + 8, w->opts->dump_level);
	put_le64(s + 16, 0);                       /* start_pfn, end_pfn: no split */
	put_le64(s + 24, l->max_mapnr > UINT32_MAX ? UINT32_MAX : l->max_mapnr);
	if (w->core->vmcoreinfo) {
		put_le64(s + 32, notes_at + (uint64_t)(w->core->vmcoreinfo - w->core->notes));
		put_le64(s + 40, w->core->vmcoreinfo_size);
	}
	put_le64(s + 48, notes_at);
	put_le64(s + 56, w->core->notes_size);
	put_le64(s + 80, 0);
	put_le64(s + 88, l->max_mapnr);
	put_le64(s + 96, l->max_mapnr);
	if (w->core->notes_size)
		memcpy(s + DISKDUMP_SUBHDR_SIZE, w->core->notes, w->core->notes_size);
	r = dump_sink_write(w->sink, l->block, s, l->sub_blocks * l->block);
	free(s);
	return r;
}

/* The chunk's present pages, minus those the dump level leaves out by kind. */
static void chunk_bits(struct writer *w, uint64_t start, uint64_t count)
{
	memset(w->bits, 0, (size_t)round_up(count, 8) / 8);
	elfcore_pfn_mark(w->core, start, count, w->lay.block, w->bits);
}

/* The bits past count in the last byte are clear (chunk_bits). */
static uint64_t count_bits(const uint8_t *bits, uint64_t count)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < round_up(count, 8) / 8; i++)
		n += (uint64_t)__builtin_popcount(bits[i]);
	return n;
}

static uint64_t chunk_pages(const struct writer *w)
{
	return w->use_filter ? pagefilter_chunk_pages(&w->filter) : 1ULL << 15;
}

/* The first chunk from start (a multiple of step) on with a page frame of
 * the core: the gaps between ranges cost nothing, however large. Their
 * bits are zero and not written: a hole of the file, or no record of the
 * flattened stream (whose reader leaves the same hole). */
static uint64_t chunk_next(const struct writer *w, uint64_t start, uint64_t step)
{
	uint64_t pfn = elfcore_next_pfn(w->core, start, w->lay.block);

	return pfn >= w->lay.max_mapnr ? w->lay.max_mapnr : pfn / step * step;
}

/* Pass 1: the first bitmap, and how many pages the filter keeps. */
static int pass_count(struct writer *w, uint64_t *kept)
{
	uint64_t step = chunk_pages(w);

	*kept = 0;
	for (uint64_t start = chunk_next(w, 0, step); start < w->lay.max_mapnr;
	     start = chunk_next(w, start + step, step)) {
		uint64_t count = w->lay.max_mapnr - start < step ? w->lay.max_mapnr - start : step;
		int r;

		chunk_bits(w, start, count);
		w->stats->pages_total += count_bits(w->bits, count);
		r = dump_sink_write(w->sink, w->lay.bitmap1 + start / 8, w->bits, (size_t)round_up(count, 8) / 8);
		if (r < 0)
			return r;
		if (w->use_filter)
			pagefilter_apply(&w->filter, start, count, w->bits);
		*kept += count_bits(w->bits, count);
	}
	return 0;
}

static int data_flush(struct writer *w)
{
	int r = 0;

	if (w->data_len)
		r = dump_sink_write(w->sink, w->data_off, w->data, w->data_len);
	w->data_off += w->data_len;
	w->data_len = 0;
	return r;
}

static int descs_flush(struct writer *w)
{
	int r = 0;

	if (w->ndescs)
		r = dump_sink_write(w->sink, w->lay.descs + (w->desc_index - w->ndescs) * DISKDUMP_DESC_SIZE,
				    w->descs, w->ndescs * DISKDUMP_DESC_SIZE);
	w->ndescs = 0;
	return r;
}

static int desc_add(struct writer *w, uint64_t offset, uint32_t size, uint32_t flags)
{
	uint8_t *d = w->descs + w->ndescs * DISKDUMP_DESC_SIZE;

	put_le64(d, offset);
	put_le32(d + 8, size);
	put_le32(d + 12, flags);
	put_le64(d + 16, 0);
	w->ndescs++;
	w->desc_index++;
	return w->ndescs == DESC_BATCH ? descs_flush(w) : 0;
}

/* Append len bytes of page data; returns their offset in *at. */
/* Append len bytes of page data; returns their offset in *at. */
static int data_add(struct writer *w, const void *buf, size_t len, uint64_t *at)
{
	int r = 0;

	if (w->data_len + len > DATA_BUFFER)
		r = data_flush(w);
	*at = w->data_off + w->data_len;
	memcpy(w->data + w->data_len, buf, len);
	w->data_len += len;
	return r;
}

/* With level bit 1, every zero page shares one stored page of zeros (its
 * bit stays set, so readers still find the page, as zeros). */
static int page_zero_put(struct writer *w, const uint8_t *zeros)
{
	w->stats->pages_zero++;
	if (!w->zero_written) {
		uint64_t at;
		int r = data_add(w, zeros, (size_t)w->lay.block, &at);
		if (r < 0)
			return r;
		w->zero_desc_off = at;
		w->zero_written = true;
	}
	return desc_add(w, w->zero_desc_off, (uint32_t)w->lay.block, 0);
}

/* The pool gives the pages back compressed, in the order they were read. */
static int page_emit(void *ctx, const struct pool_page *pg)
{
	struct writer *w = ctx;
	uint64_t at;
	int r;

	if (pg->zero)
		return page_zero_put(w, pg->data);
	w->stats->pages_written++;
	if (pg->flags)
		w->stats->pages_compressed++;
	r = data_add(w, pg->data, pg->size, &at);
	return r < 0 ? r : desc_add(w, at, pg->size, pg->flags);
}

static int pass_write_chunk(struct writer *w, uint64_t start, uint64_t count)
{
	for (uint64_t i = 0; i < count; i++) {
		uint8_t *buf;
		int r;

		if (!(w->bits[i / 8] & (1u << (i % 8))))
			continue;
		r = pagepool_page(&w->pool, &buf);
		if (r == 0)
			r = elfcore_read_page(w->core, (start + i) * w->lay.block, buf, (size_t)w->lay.block);
		if (r < 0)
			return r;
	}
	return dump_sink_write(w->sink, w->lay.bitmap2 + start / 8, w->bits, (size_t)round_up(count, 8) / 8);
}

/* Pass 2: decide again, then write the pages, descriptors and second bitmap. */
static int pass_write(struct writer *w)
{
	uint64_t step = chunk_pages(w);
	int r = 0;

	for (uint64_t start = chunk_next(w, 0, step); r == 0 && start < w->lay.max_mapnr;
	     start = chunk_next(w, start + step, step)) {
		uint64_t count = w->lay.max_mapnr - start < step ? w->lay.max_mapnr - start : step;

		chunk_bits(w, start, count);
		if (w->use_filter)
			w->stats->pages_filtered += pagefilter_apply(&w->filter, start, count, w->bits);
		r = pass_write_chunk(w, start, count);
		if (w->opts->progress)
			w->opts->progress(w->opts->progress_ctx, start + count, w->lay.max_mapnr);
	}
	if (r == 0)
		r = pagepool_finish(&w->pool);
	if (r == 0)
		r = data_flush(w);
	if (r == 0)
		r = descs_flush(w);
	return r;
}

static int writer_open(struct writer *w)
{
	w->data = malloc(DATA_BUFFER);
	w->descs = malloc(DESC_BATCH * DISKDUMP_DESC_SIZE);
	w->bits = malloc((size_t)chunk_pages(w) / 8 + 1);
	if (!w->data || !w->descs || !w->bits)
		return -ENOMEM;
	return 0;
}

/* The page compressor, on opts->threads threads. Without the chosen
 * compressor's library (an image built without it), zlib, which the init
 * links, saves the dump all the same; stats says so. */
static int writer_pool_open(struct writer *w)
{
	struct pagepool_opts po = {
		.comp = pagecomp_get(w->opts->compress), .page_size = (size_t)w->lay.block,
		.threads = w->opts->threads, .find_zero = (w->opts->dump_level & DL_ZERO) != 0,
		.emit = page_emit, .emit_ctx = w,
	};
	int r = pagepool_open(&w->pool, &po, w->stats->fallback_why, sizeof(w->stats->fallback_why));

	if (r == -ENOENT && po.comp != pagecomp_get(COMPRESS_ZLIB)) {
		pagepool_close(&w->pool);
		po.comp = pagecomp_get(COMPRESS_ZLIB);
		r = pagepool_open(&w->pool, &po, NULL, 0);
	} else {
		w->stats->fallback_why[0] = '\0';
	}
	w->pool_open = true;
	w->stats->compress_flag = po.comp->flag;
	w->stats->threads = w->pool.nthreads;
	return r;
}

static void writer_close(struct writer *w)
{
	if (w->pool_open)
		pagepool_close(&w->pool);
	free(w->data);
	free(w->descs);
	free(w->bits);
	if (w->use_filter)
		pagefilter_free(&w->filter);
}

static int writer_run(struct writer *w)
{
	uint64_t kept = 0;
	int r = header_write(w, w->stats->compress_flag | DUMP_DH_COMPRESSED_INCOMPLETE);

	if (r == 0)
		r = subheader_write(w);
	if (r == 0)
		r = pass_count(w, &kept);
	if (r < 0)
		return r;
	w->data_off = w->lay.descs + kept * DISKDUMP_DESC_SIZE;
	r = pass_write(w);
	if (r == 0)
		r = header_write(w, w->stats->compress_flag);
	w->stats->bytes = w->data_off;
	return r;
}

int diskdump_write(const struct elfcore *core, const struct vmcoreinfo *vi,
		   struct dump_sink *sink, const struct diskdump_opts *opts,
		   struct diskdump_stats *stats)
{
	struct writer w = { .core = core, .vi = vi, .sink = sink, .opts = opts, .stats = stats };
	uint64_t block = vi ? (uint64_t)vi->page_size : 4096;
	int r;

	memset(stats, 0, sizeof(*stats));
	layout_compute(&w.lay, core, block);
	if (vi && (opts->dump_level & ~(unsigned)DL_ZERO)) {
		r = pagefilter_init(&w.filter, core, vi, opts->dump_level);
		w.use_filter = r == 0;
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			pagefilter_free(&w.filter);
	}
	stats->filtered_by_kind = w.use_filter;
	r = writer_open(&w);
	if (r == 0)
		r = writer_pool_open(&w);
	if (r == 0)
		r = writer_run(&w);
	writer_close(&w);
	return r;
}

int diskdump_bound(const struct elfcore *core, const struct vmcoreinfo *vi, unsigned level, uint64_t *bytes)
{
	struct diskdump_opts opts = { .dump_level = level };
	struct diskdump_stats stats;
	struct dump_sink none;
	struct writer w = { .core = core, .vi = vi, .sink = &none, .opts = &opts, .stats = &stats };
	uint64_t kept = 0;
	int r;

	dump_sink_init(&none, -1, false);
	memset(&stats, 0, sizeof(stats));
	layout_compute(&w.lay, core, vi ? (uint64_t)vi->page_size : 4096);
	if (vi && (level & ~(unsigned)DL_ZERO))
		w.use_filter = pagefilter_init(&w.filter, core, vi, level) == 0;
	r = writer_open(&w);
	if (r == 0)
		r = pass_count(&w, &kept);
	writer_close(&w);
	*bytes = w.lay.descs + kept * (DISKDUMP_DESC_SIZE + w.lay.block) + w.lay.block;
	return r;
}
