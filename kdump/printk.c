/* printk: the crashed kernel's log from its lockless printk ring buffer. */
#include "kdump/printk.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdump/vmcoreinfo_check.h"

/* A descriptor's state_var: the top two bits are its state, the rest its id. */
#define SV_STATE_SHIFT 62
#define SV_ID_MASK ((1ULL << SV_STATE_SHIFT) - 1)
#define STATE_COMMITTED 1
#define STATE_FINALIZED 2
#define MAX_BITS 30

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

struct out {
	char *buf;
	size_t len, cap;
};

static int out_reserve(struct out *o, size_t more)
{
	char *grown;
	size_t cap = o->cap ? o->cap : 4096;

	if (o->len + more + 1 <= o->cap)
		return 0;
	while (cap < o->len + more + 1)
		cap *= 2;
	grown = realloc(o->buf, cap);
	if (!grown)
		return -ENOMEM;
	o->buf = grown;
	o->cap = cap;
	return 0;
}

/* One record: its timestamp, then its text, non-printing bytes escaped. */
static int out_record(struct out *o, uint64_t ts_nsec, const uint8_t *text, size_t len)
{
	int r = out_reserve(o, 32 + len * 4 + 1);

	if (r < 0)
		return r;
	o->len += (size_t)sprintf(o->buf + o->len, "[%5llu.%06llu] ",
				  (unsigned long long)(ts_nsec / 1000000000ULL),
				  (unsigned long long)(ts_nsec % 1000000000ULL / 1000));
	for (size_t i = 0; i < len; i++) {
		uint8_t c = text[i];

		if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t')
			o->buf[o->len++] = (char)c;
		else
			o->len += (size_t)sprintf(o->buf + o->len, "\\x%02x", c);
	}
	o->buf[o->len++] = '\n';
	o->buf[o->len] = '\0';
	return 0;
}

/* Where a record's text lies in the data ring: blocks start with the
 * record's id (8 bytes); a block that would cross the ring's end starts
 * over at offset 0 instead. Returns false for records without text. */
static bool text_span(uint64_t begin, uint64_t next, uint32_t size_bits, size_t *at, size_t *len)
{
	uint64_t size = 1ULL << size_bits;

	if ((begin & 1) || (next & 1) || next <= begin || next - begin > size)
		return false;
	if (begin >> size_bits == next >> size_bits) {
		*at = (size_t)(begin & (size - 1)) + 8;
		*len = (size_t)(next - begin);
	} else {
		*at = 8;
		*len = (size_t)(next & (size - 1));
	}
	if (*len < 8)
		return false;
	*len -= 8;
	return *at + *len <= size;
}

static int record_add(const struct vmcoreinfo *vi, const struct printk_ring *ring, uint64_t id, struct out *o)
{
	uint64_t idx = id & ((1ULL << ring->count_bits) - 1);
	const uint8_t *d = ring->descs + idx * (uint64_t)vi->size_prb_desc;
	const uint8_t *info = ring->infos + idx * (uint64_t)vi->size_printk_info;
	uint64_t sv = get64(d + vi->off_desc_state_var + vi->off_atomic_counter);
	uint64_t state = sv >> SV_STATE_SHIFT;
	uint16_t text_len;
	size_t at, len;

	/* Only records that are whole and still this id's. */
	if ((sv & SV_ID_MASK) != (id & SV_ID_MASK) || (state != STATE_COMMITTED && state != STATE_FINALIZED))
		return 0;
	if (!text_span(get64(d + vi->off_desc_text_blk_lpos + vi->off_lpos_begin),
		       get64(d + vi->off_desc_text_blk_lpos + vi->off_lpos_next), ring->size_bits, &at, &len))
		return 0;
	memcpy(&text_len, info + vi->off_info_text_len, 2);
	return out_record(o, get64(info + vi->off_info_ts_nsec), ring->data + at,
			  text_len < len ? text_len : len);
}

int printk_format(const struct vmcoreinfo *vi, const struct printk_ring *ring, char **text, size_t *len)
{
	struct out o = { 0 };
	uint64_t count;
	int r = 0;

	/* Each offset below was checked against its structure's size. */
	r = vmcoreinfo_check_printk(vi, NULL, 0);
	if (r < 0)
		return r;
	if (ring->count_bits > MAX_BITS || ring->size_bits > MAX_BITS || ring->size_bits < 4)
		return -EINVAL;
	count = 1ULL << ring->count_bits;
	if (ring->head_id - ring->tail_id >= count)
		return -EINVAL;
	r = out_reserve(&o, 0);
	if (r == 0)
		o.buf[0] = '\0';     /* a ring with no whole record gives "" */
	for (uint64_t id = ring->tail_id; r == 0; id++) {
		r = record_add(vi, ring, id, &o);
		if (id == ring->head_id)
			break;
	}
	if (r < 0) {
		free(o.buf);
		return r;
	}
	*text = o.buf;
	*len = o.len;
	return 0;
}

/* Read size bytes at the address stored at vaddr. */
static int read_array(struct kvmem *kv, uint64_t ptr_at, uint64_t size, uint8_t **out)
{
	uint64_t addr;
	int r = kvmem_read(kv, ptr_at, &addr, 8);

	if (r < 0)
		return r;
	if (size > PRINTK_TEXT_MAX)
		return -EINVAL;
	*out = malloc(size ? size : 1);
	if (!*out)
		return -ENOMEM;
	return kvmem_read(kv, addr, *out, size);
}

int printk_read(const struct elfcore *core, const struct vmcoreinfo *vi, char **text, size_t *len)
{
	struct printk_ring ring = { 0 };
	uint8_t *descs = NULL, *infos = NULL, *data = NULL;
	uint64_t rb, dr, tdr;
	struct kvmem kv;
	int r;

	r = vmcoreinfo_check_printk(vi, NULL, 0);
	if (r == 0)
		r = kvmem_init(&kv, core, vi);
	if (r == 0)
		r = kvmem_read(&kv, (uint64_t)vi->prb, &rb, 8);     /* prb is a pointer */
	if (r < 0)
		return r;
	dr = rb + (uint64_t)vi->off_prb_desc_ring;
	tdr = rb + (uint64_t)vi->off_prb_text_data_ring;
	r = kvmem_read(&kv, dr + (uint64_t)vi->off_dr_count_bits, &ring.count_bits, 4);
	if (r == 0)
		r = kvmem_read(&kv, tdr + (uint64_t)vi->off_tdr_size_bits, &ring.size_bits, 4);
	if (r == 0)
		r = kvmem_read(&kv, dr + (uint64_t)(vi->off_dr_head_id + vi->off_atomic_counter), &ring.head_id, 8);
	if (r == 0)
		r = kvmem_read(&kv, dr + (uint64_t)(vi->off_dr_tail_id + vi->off_atomic_counter), &ring.tail_id, 8);
	if (r == 0 && (ring.count_bits > MAX_BITS || ring.size_bits > MAX_BITS))
		r = -EINVAL;
	if (r == 0)
		r = read_array(&kv, dr + (uint64_t)vi->off_dr_descs, (1ULL << ring.count_bits) * (uint64_t)vi->size_prb_desc, &descs);
	if (r == 0)
		r = read_array(&kv, dr + (uint64_t)vi->off_dr_infos, (1ULL << ring.count_bits) * (uint64_t)vi->size_printk_info, &infos);
	if (r == 0)
		r = read_array(&kv, tdr + (uint64_t)vi->off_tdr_data, 1ULL << ring.size_bits, &data);
	if (r == 0) {
		ring.descs = descs;
		ring.infos = infos;
		ring.data = data;
		r = printk_format(vi, &ring, text, len);
	}
	free(descs);
	free(infos);
	free(data);
	return r;
}
