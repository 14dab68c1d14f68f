/* fuzz_printk: the printk ring reader on arbitrary rings and arbitrary
 * VMCOREINFO offsets: the input's note changes (vmcoreinfo_input.h) to
 * Debian 6.1's layout, then come the ring's header (count bits, size bits,
 * tail and head ids) and its three arrays, each copied to a buffer of the
 * size the note gives, as printk_read allocates them. No crash, no read
 * outside the arrays, only the documented results. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/vmcoreinfo_input.h"
#include "tests/unit/kdump_ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define COUNT_BITS_MAX 4
#define SIZE_BITS_MAX 10

/* A structure's size from the note, when a reader would allocate by it. */
static size_t struct_size(int64_t v)
{
	return v >= 1 && v <= 4096 ? (size_t)v : 1;
}

/* Copy up to len bytes of the input to a zeroed buffer of exactly len. */
static uint8_t *take(const uint8_t **data, size_t *size, size_t len)
{
	uint8_t *p = calloc(1, len);
	size_t n = *size < len ? *size : len;

	if (!p)
		abort();
	memcpy(p, *data, n);
	*data += n;
	*size -= n;
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char note[sizeof(ring_vmcoreinfo) + NOTE_INPUT_MAX + 1];
	struct vmcoreinfo vi;
	struct printk_ring ring = { 0 };
	uint8_t head[18];
	uint8_t *descs, *infos, *text_data;
	size_t used = vmcoreinfo_input(data, size, ring_vmcoreinfo, note), count;
	char *text;
	size_t len;
	int r;

	data += used;
	size -= used;
	if (vmcoreinfo_parse(note, strlen(note), &vi) < 0 || size < sizeof(head))
		return 0;
	memcpy(head, data, sizeof(head));
	data += sizeof(head);
	size -= sizeof(head);
	ring.count_bits = head[0] % (COUNT_BITS_MAX + 1);
	ring.size_bits = 4 + head[1] % (SIZE_BITS_MAX - 3);
	memcpy(&ring.tail_id, head + 2, 8);
	memcpy(&ring.head_id, head + 10, 8);
	count = (size_t)1 << ring.count_bits;
	/* Exact-size copies, so ASan sees any read past an array. */
	descs = take(&data, &size, count * struct_size(vi.size_prb_desc));
	infos = take(&data, &size, count * struct_size(vi.size_printk_info));
	text_data = take(&data, &size, (size_t)1 << ring.size_bits);
	ring.descs = descs;
	ring.infos = infos;
	ring.data = text_data;
	r = printk_format(&vi, &ring, &text, &len);
	if (r == 0) {
		if (strlen(text) != len)
			abort();
		free(text);
	} else if (r != -EINVAL && r != -EOPNOTSUPP) {
		abort();
	}
	free(descs);
	free(infos);
	free(text_data);
	return 0;
}
