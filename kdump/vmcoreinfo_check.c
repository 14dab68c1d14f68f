/* vmcoreinfo_check: the note comes from the crashed kernel, whose memory
 * may be the reason it crashed. Every size or offset a reader indexes a
 * buffer with, or divides by, is checked here against the structure it
 * lies in; what does not fit is refused, and the capture goes on without
 * the reader that needed it (docs/kdump.md, "A corrupt dump"). */
#include "kdump/vmcoreinfo_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#define F(field) offsetof(struct vmcoreinfo, field)
#define NONE SIZE_MAX
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* Offsets inside the printk structures: a few dozen bytes in every kernel. */
#define STRUCT_MAX 4096

/* A value that must lie in [min, max]. */
struct span {
	size_t field;
	int64_t min, max;
};

/* A field of width bytes at offset at (plus at2: a field inside a field)
 * that must end within the structure whose size is within. A within the
 * note does not give is not checked (the sizes of the printk ring's outer
 * structures are optional). */
struct fit {
	size_t at, at2;
	unsigned width;
	size_t within;
};

struct rules {
	const size_t *needs;
	size_t nneeds;
	const struct span *spans;
	size_t nspans;
	const struct fit *fits;
	size_t nfits;
};

static const size_t filter_needs[] = {
	F(init_top_pgt), F(phys_base), F(mem_section), F(mem_section_len), F(size_mem_section),
	F(off_section_mem_map), F(section_size_bits), F(size_page), F(off_flags), F(off_mapping),
	F(off_mapcount), F(off_private), F(pg_lru), F(pg_private), F(pg_swapcache), F(pg_slab),
	F(buddy_mapcount),
};

static const struct span filter_spans[] = {
	{ F(size_page), 8, 256 },
	{ F(size_mem_section), 8, 1 << 20 },
	{ F(section_size_bits), 13, 39 },
	{ F(mem_section_len), 1, 1 << 20 },
};

static const struct fit filter_fits[] = {
	/* The sections per root array are PAGESIZE / SIZE(mem_section). */
	{ F(size_mem_section), NONE, 0, F(page_size) },
	{ F(off_section_mem_map), NONE, 8, F(size_mem_section) },
	{ F(off_flags), NONE, 8, F(size_page) },
	{ F(off_mapping), NONE, 8, F(size_page) },
	{ F(off_private), NONE, 8, F(size_page) },
	{ F(off_mapcount), NONE, 4, F(size_page) },
};

static const size_t printk_needs[] = {
	F(prb), F(off_prb_desc_ring), F(off_prb_text_data_ring), F(off_dr_count_bits),
	F(off_dr_descs), F(off_dr_infos), F(off_dr_head_id), F(off_dr_tail_id), F(size_prb_desc),
	F(off_desc_state_var), F(off_desc_text_blk_lpos), F(off_lpos_begin), F(off_lpos_next),
	F(size_printk_info), F(off_info_ts_nsec), F(off_info_text_len), F(off_tdr_size_bits),
	F(off_tdr_data), F(off_atomic_counter),
};

static const struct span printk_spans[] = {
	{ F(off_prb_desc_ring), 0, STRUCT_MAX },
	{ F(off_prb_text_data_ring), 0, STRUCT_MAX },
	{ F(off_dr_count_bits), 0, STRUCT_MAX },
	{ F(off_dr_descs), 0, STRUCT_MAX },
	{ F(off_dr_infos), 0, STRUCT_MAX },
	{ F(off_dr_head_id), 0, STRUCT_MAX },
	{ F(off_dr_tail_id), 0, STRUCT_MAX },
	{ F(size_prb_desc), 1, STRUCT_MAX },
	{ F(off_desc_state_var), 0, STRUCT_MAX },
	{ F(off_desc_text_blk_lpos), 0, STRUCT_MAX },
	{ F(off_lpos_begin), 0, STRUCT_MAX },
	{ F(off_lpos_next), 0, STRUCT_MAX },
	{ F(size_printk_info), 1, STRUCT_MAX },
	{ F(off_info_ts_nsec), 0, STRUCT_MAX },
	{ F(off_info_text_len), 0, STRUCT_MAX },
	{ F(off_tdr_size_bits), 0, STRUCT_MAX },
	{ F(off_tdr_data), 0, STRUCT_MAX },
	{ F(off_atomic_counter), 0, STRUCT_MAX },
};

static const struct fit printk_fits[] = {
	/* What the reader takes from each descriptor and info record. */
	{ F(off_desc_state_var), F(off_atomic_counter), 8, F(size_prb_desc) },
	{ F(off_desc_text_blk_lpos), F(off_lpos_begin), 8, F(size_prb_desc) },
	{ F(off_desc_text_blk_lpos), F(off_lpos_next), 8, F(size_prb_desc) },
	{ F(off_info_ts_nsec), NONE, 8, F(size_printk_info) },
	{ F(off_info_text_len), NONE, 2, F(size_printk_info) },
	/* The ring's own fields, when the note gives the structures' sizes. */
	{ F(off_dr_count_bits), NONE, 4, F(size_prb_desc_ring) },
	{ F(off_dr_descs), NONE, 8, F(size_prb_desc_ring) },
	{ F(off_dr_infos), NONE, 8, F(size_prb_desc_ring) },
	{ F(off_dr_head_id), F(off_atomic_counter), 8, F(size_prb_desc_ring) },
	{ F(off_dr_tail_id), F(off_atomic_counter), 8, F(size_prb_desc_ring) },
	{ F(off_prb_desc_ring), NONE, 0, F(size_printk_ringbuffer) },
	{ F(off_prb_text_data_ring), NONE, 0, F(size_printk_ringbuffer) },
};

static int64_t value(const struct vmcoreinfo *vi, size_t field)
{
	return *(const int64_t *)((const char *)vi + field);
}

static void say(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!why || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
}

static int fit_check(const struct vmcoreinfo *vi, const struct fit *f, char *why, size_t size)
{
	int64_t at = value(vi, f->at), at2 = f->at2 == NONE ? 0 : value(vi, f->at2);
	int64_t within = value(vi, f->within);
	const char *at_key = vmcoreinfo_key_name(f->at), *within_key = vmcoreinfo_key_name(f->within);

	if (within == VI_UNSET)
		return 0;
	if (at >= 0 && at2 >= 0 && within >= 0 && at <= within && at2 <= within &&
	    (uint64_t)at + (uint64_t)at2 + f->width <= (uint64_t)within)
		return 0;
	if (f->at2 == NONE && f->width == 0)
		say(why, size, "%s=%lld in VMCOREINFO is larger than %s=%lld", at_key, (long long)at,
		    within_key, (long long)within);
	else if (f->at2 == NONE)
		say(why, size, "%s=%lld in VMCOREINFO puts a %u-byte field past the end of %s=%lld",
		    at_key, (long long)at, f->width, within_key, (long long)within);
	else
		say(why, size, "%s=%lld + %s=%lld in VMCOREINFO puts a %u-byte field past the end of %s=%lld",
		    at_key, (long long)at, vmcoreinfo_key_name(f->at2), (long long)at2, f->width,
		    within_key, (long long)within);
	return -EINVAL;
}

static int rules_check(const struct vmcoreinfo *vi, const struct rules *r, char *why, size_t size)
{
	for (size_t i = 0; i < r->nneeds; i++)
		if (value(vi, r->needs[i]) == VI_UNSET) {
			say(why, size, "VMCOREINFO has no %s", vmcoreinfo_key_name(r->needs[i]));
			return -EOPNOTSUPP;
		}
	for (size_t i = 0; i < r->nspans; i++) {
		const struct span *s = &r->spans[i];
		int64_t v = value(vi, s->field);

		if (v < s->min || v > s->max) {
			say(why, size, "%s=%lld in VMCOREINFO is outside %lld..%lld",
			    vmcoreinfo_key_name(s->field), (long long)v, (long long)s->min, (long long)s->max);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < r->nfits; i++)
		if (fit_check(vi, &r->fits[i], why, size) < 0)
			return -EINVAL;
	return 0;
}

int vmcoreinfo_check_filter(const struct vmcoreinfo *vi, char *why, size_t size)
{
	static const struct rules filter = {
		filter_needs, COUNT(filter_needs), filter_spans, COUNT(filter_spans),
		filter_fits, COUNT(filter_fits),
	};
	int r = rules_check(vi, &filter, why, size);

	/* A section smaller than a page has no whole page frame to describe. */
	if (r == 0 && vi->section_size_bits <= __builtin_ctzll((uint64_t)vi->page_size)) {
		say(why, size, "NUMBER(SECTION_SIZE_BITS)=%lld in VMCOREINFO makes a memory section "
		    "no larger than PAGESIZE=%lld",
		    (long long)vi->section_size_bits, (long long)vi->page_size);
		r = -EINVAL;
	}
	return r;
}

int vmcoreinfo_check_printk(const struct vmcoreinfo *vi, char *why, size_t size)
{
	static const struct rules printk = {
		printk_needs, COUNT(printk_needs), printk_spans, COUNT(printk_spans),
		printk_fits, COUNT(printk_fits),
	};

	return rules_check(vi, &printk, why, size);
}

unsigned vmcoreinfo_phys_bits(const struct vmcoreinfo *vi)
{
	int64_t bits = vi->max_physmem_bits;

	return bits >= 24 && bits <= VMCOREINFO_PHYS_BITS_MAX ? (unsigned)bits : 0;
}
