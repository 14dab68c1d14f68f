/* vmcoreinfo: the kernel's VMCOREINFO note (KEY=value lines) as numbers. */
#ifndef LIFEBOAT_KDUMP_VMCOREINFO_H
#define LIFEBOAT_KDUMP_VMCOREINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A value the note did not carry stays VI_UNSET. */
#define VI_UNSET INT64_MIN

struct vmcoreinfo {
	char osrelease[65];
	int64_t page_size;
	/* x86_64 address translation */
	int64_t phys_base, kerneloffset, pgtable_l5, init_top_pgt;
	/* sparse memory model */
	int64_t mem_section, mem_section_len, size_mem_section, off_section_mem_map;
	int64_t section_size_bits, max_physmem_bits;
	/* struct page */
	int64_t size_page, off_flags, off_mapping, off_mapcount, off_private;
	int64_t pg_lru, pg_private, pg_swapcache, pg_swapbacked, pg_slab, pg_hwpoison;
	int64_t buddy_mapcount, offline_mapcount;
	/* compound pages (a THP's head and its order in the first tail) */
	int64_t pg_head_mask, off_compound_order;
	/* printk ring buffer and the utsname */
	int64_t prb, init_uts_ns, off_uts_name;
	int64_t size_printk_ringbuffer, off_prb_desc_ring, off_prb_text_data_ring, off_prb_fail;
	int64_t size_prb_desc_ring, off_dr_count_bits, off_dr_descs, off_dr_infos, off_dr_head_id, off_dr_tail_id;
	int64_t size_prb_desc, off_desc_state_var, off_desc_text_blk_lpos;
	int64_t off_lpos_begin, off_lpos_next;
	int64_t size_printk_info, off_info_seq, off_info_ts_nsec, off_info_text_len, off_info_caller_id;
	int64_t off_tdr_size_bits, off_tdr_data;
	int64_t off_atomic_counter;
};

/* Parse the note's text (not necessarily NUL-terminated). Unknown keys and
 * malformed lines are ignored: the note is not a stable ABI, and readers must
 * cope with what a kernel exports. Returns 0, or -EINVAL without PAGESIZE. */
int vmcoreinfo_parse(const char *text, size_t len, struct vmcoreinfo *vi);

/* The note's key for a field of struct vmcoreinfo (an offsetof), as
 * "SIZE(page)", for messages; "?" for a field no key fills. Whether the
 * values can be used is kdump/vmcoreinfo_check.h's to say. */
const char *vmcoreinfo_key_name(size_t field);

#endif
