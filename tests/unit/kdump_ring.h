/* kdump_ring: a printk ring buffer built in memory with the layout Debian's
 * 6.1 kernel exports in VMCOREINFO, for the printk reader's tests and fuzz
 * target. */
#ifndef LIFEBOAT_TEST_KDUMP_RING_H
#define LIFEBOAT_TEST_KDUMP_RING_H

#include <string.h>

#include "kdump/printk.h"
#include "kdump/vmcoreinfo.h"

static const char ring_vmcoreinfo[] =
	"PAGESIZE=4096\nSYMBOL(prb)=ffffffff9e8643e0\n"
	"OFFSET(printk_ringbuffer.desc_ring)=0\nOFFSET(printk_ringbuffer.text_data_ring)=48\n"
	"OFFSET(printk_ringbuffer.fail)=80\nOFFSET(prb_desc_ring.count_bits)=0\n"
	"OFFSET(prb_desc_ring.descs)=8\nOFFSET(prb_desc_ring.infos)=16\n"
	"OFFSET(prb_desc_ring.head_id)=24\nOFFSET(prb_desc_ring.tail_id)=32\n"
	"SIZE(prb_desc)=24\nOFFSET(prb_desc.state_var)=0\nOFFSET(prb_desc.text_blk_lpos)=8\n"
	"OFFSET(prb_data_blk_lpos.begin)=0\nOFFSET(prb_data_blk_lpos.next)=8\n"
	"SIZE(printk_info)=88\nOFFSET(printk_info.seq)=0\nOFFSET(printk_info.ts_nsec)=8\n"
	"OFFSET(printk_info.text_len)=16\nOFFSET(printk_info.caller_id)=20\n"
	"OFFSET(prb_data_ring.size_bits)=0\nOFFSET(prb_data_ring.data)=8\n"
	"OFFSET(atomic_long_t.counter)=0\n";

#define RING_DESC 24
#define RING_INFO 88

/* Put record id with text at data offset lpos (the block's start; next is
 * where the following block starts), with the given state. */
static inline void ring_put(uint8_t *descs, uint8_t *infos, uint8_t *data, uint32_t count_bits,
			    uint32_t size_bits, uint64_t id, uint64_t state, uint64_t begin, uint64_t next,
			    uint64_t ts, const char *text)
{
	uint64_t idx = id & ((1ULL << count_bits) - 1), size = 1ULL << size_bits;
	uint64_t sv = state << 62 | id;
	uint16_t len = (uint16_t)strlen(text);
	uint64_t at = begin >> size_bits == next >> size_bits ? begin % size : 0;

	memcpy(descs + idx * RING_DESC, &sv, 8);
	memcpy(descs + idx * RING_DESC + 8, &begin, 8);
	memcpy(descs + idx * RING_DESC + 16, &next, 8);
	memcpy(infos + idx * RING_INFO + 8, &ts, 8);
	memcpy(infos + idx * RING_INFO + 16, &len, 2);
	memcpy(data + at, &id, 8);
	memcpy(data + at + 8, text, len);
}

#endif
