/* vmcoreinfo: the kernel's VMCOREINFO note (KEY=value lines) as numbers. */
#include "kdump/vmcoreinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum vi_base { HEX, DEC };

/* Each key the capture needs, how the kernel prints its value, and where it goes. */
static const struct vi_key {
	const char *key;
	enum vi_base base;
	size_t field;
} vi_keys[] = {
#define K(key, base, field) { key, base, offsetof(struct vmcoreinfo, field) }
	K("PAGESIZE", DEC, page_size),
	K("NUMBER(phys_base)", DEC, phys_base),
	K("KERNELOFFSET", HEX, kerneloffset),
	K("NUMBER(pgtable_l5_enabled)", DEC, pgtable_l5),
	K("SYMBOL(init_top_pgt)", HEX, init_top_pgt),
	K("SYMBOL(mem_section)", HEX, mem_section),
	K("LENGTH(mem_section)", DEC, mem_section_len),
	K("SIZE(mem_section)", DEC, size_mem_section),
	K("OFFSET(mem_section.section_mem_map)", DEC, off_section_mem_map),
	K("NUMBER(SECTION_SIZE_BITS)", DEC, section_size_bits),
	K("NUMBER(MAX_PHYSMEM_BITS)", DEC, max_physmem_bits),
	K("SIZE(page)", DEC, size_page),
	K("OFFSET(page.flags)", DEC, off_flags),
	K("OFFSET(page.mapping)", DEC, off_mapping),
	K("OFFSET(page._mapcount)", DEC, off_mapcount),
	K("OFFSET(page.private)", DEC, off_private),
	K("NUMBER(PG_lru)", DEC, pg_lru),
	K("NUMBER(PG_private)", DEC, pg_private),
	K("NUMBER(PG_swapcache)", DEC, pg_swapcache),
	K("NUMBER(PG_swapbacked)", DEC, pg_swapbacked),
	K("NUMBER(PG_slab)", DEC, pg_slab),
	K("NUMBER(PG_hwpoison)", DEC, pg_hwpoison),
	K("NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)", DEC, buddy_mapcount),
	K("NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)", DEC, offline_mapcount),
	K("NUMBER(PG_head_mask)", DEC, pg_head_mask),
	K("OFFSET(page.compound_order)", DEC, off_compound_order),
	K("SYMBOL(prb)", HEX, prb),
	K("SYMBOL(init_uts_ns)", HEX, init_uts_ns),
	K("OFFSET(uts_namespace.name)", DEC, off_uts_name),
	K("SIZE(printk_ringbuffer)", DEC, size_printk_ringbuffer),
	K("OFFSET(printk_ringbuffer.desc_ring)", DEC, off_prb_desc_ring),
	K("OFFSET(printk_ringbuffer.text_data_ring)", DEC, off_prb_text_data_ring),
	K("OFFSET(printk_ringbuffer.fail)", DEC, off_prb_fail),
	K("SIZE(prb_desc_ring)", DEC, size_prb_desc_ring),
	K("OFFSET(prb_desc_ring.count_bits)", DEC, off_dr_count_bits),
	K("OFFSET(prb_desc_ring.descs)", DEC, off_dr_descs),
	K("OFFSET(prb_desc_ring.infos)", DEC, off_dr_infos),
	K("OFFSET(prb_desc_ring.head_id)", DEC, off_dr_head_id),
	K("OFFSET(prb_desc_ring.tail_id)", DEC, off_dr_tail_id),
	K("SIZE(prb_desc)", DEC, size_prb_desc),
	K("OFFSET(prb_desc.state_var)", DEC, off_desc_state_var),
	K("OFFSET(prb_desc.text_blk_lpos)", DEC, off_desc_text_blk_lpos),
	K("OFFSET(prb_data_blk_lpos.begin)", DEC, off_lpos_begin),
	K("OFFSET(prb_data_blk_lpos.next)", DEC, off_lpos_next),
	K("SIZE(printk_info)", DEC, size_printk_info),
	K("OFFSET(printk_info.seq)", DEC, off_info_seq),
	K("OFFSET(printk_info.ts_nsec)", DEC, off_info_ts_nsec),
	K("OFFSET(printk_info.text_len)", DEC, off_info_text_len),
	K("OFFSET(printk_info.caller_id)", DEC, off_info_caller_id),
	K("OFFSET(prb_data_ring.size_bits)", DEC, off_tdr_size_bits),
	K("OFFSET(prb_data_ring.data)", DEC, off_tdr_data),
	K("OFFSET(atomic_long_t.counter)", DEC, off_atomic_counter),
#undef K
};

static void vmcoreinfo_reset(struct vmcoreinfo *vi)
{
	memset(vi, 0, sizeof(*vi));
	for (size_t i = 0; i < sizeof(vi_keys) / sizeof(vi_keys[0]); i++)
		*(int64_t *)((char *)vi + vi_keys[i].field) = VI_UNSET;
}

/* One KEY=value line; the value must be a whole number in the key's base. */
static void vmcoreinfo_line(const char *line, size_t len, struct vmcoreinfo *vi)
{
	const char *eq = memchr(line, '=', len);
	char value[32];
	size_t klen, vlen;

	if (!eq)
		return;
	klen = (size_t)(eq - line);
	vlen = len - klen - 1;
	if (klen == 9 && memcmp(line, "OSRELEASE", 9) == 0) {
		vlen = vlen < sizeof(vi->osrelease) - 1 ? vlen : sizeof(vi->osrelease) - 1;
		memcpy(vi->osrelease, eq + 1, vlen);
		vi->osrelease[vlen] = '\0';
		return;
	}
	if (vlen == 0 || vlen >= sizeof(value))
		return;
	memcpy(value, eq + 1, vlen);
	value[vlen] = '\0';
	for (size_t i = 0; i < sizeof(vi_keys) / sizeof(vi_keys[0]); i++) {
		const struct vi_key *k = &vi_keys[i];
		char *end;
		int64_t v;

		if (strlen(k->key) != klen || memcmp(k->key, line, klen) != 0)
			continue;
		errno = 0;
		/* Addresses are unsigned 64-bit; stored as their bit pattern. */
		v = k->base == HEX ? (int64_t)strtoull(value, &end, 16) : strtoll(value, &end, 10);
		if (errno == 0 && *end == '\0' && end != value)
			*(int64_t *)((char *)vi + k->field) = v;
		return;
	}
}

int vmcoreinfo_parse(const char *text, size_t len, struct vmcoreinfo *vi)
{
	size_t start = 0;

	vmcoreinfo_reset(vi);
	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;

		vmcoreinfo_line(text + start, end - start, vi);
		start = end + 1;
	}
	if (vi->page_size == VI_UNSET || vi->page_size < 512 || vi->page_size > (1 << 20) ||
	    (vi->page_size & (vi->page_size - 1)))
		return -EINVAL;
	return 0;
}

const char *vmcoreinfo_key_name(size_t field)
{
	for (size_t i = 0; i < sizeof(vi_keys) / sizeof(vi_keys[0]); i++)
		if (vi_keys[i].field == field)
			return vi_keys[i].key;
	return "?";
}
