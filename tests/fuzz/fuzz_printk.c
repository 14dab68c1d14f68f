/* fuzz_printk: the printk ring reader on arbitrary rings (descriptors,
 * infos, text data and ids from the input): no crash, no read outside the
 * arrays, only the documented results. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/kdump_ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define COUNT_BITS_MAX 4
#define SIZE_BITS_MAX 10

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vmcoreinfo vi;
	static int parsed;
	struct printk_ring ring = { 0 };
	uint8_t head[18];
	uint8_t *descs, *infos, *text_data;
	size_t nd, ni, nt;
	char *text;
	size_t len;
	int r;

	if (!parsed && vmcoreinfo_parse(ring_vmcoreinfo, strlen(ring_vmcoreinfo), &vi) == 0)
		parsed = 1;
	if (size < sizeof(head))
		return 0;
	memcpy(head, data, sizeof(head));
	ring.count_bits = head[0] % (COUNT_BITS_MAX + 1);
	ring.size_bits = 4 + head[1] % (SIZE_BITS_MAX - 3);
	memcpy(&ring.tail_id, head + 2, 8);
	memcpy(&ring.head_id, head + 10, 8);
	nd = ((size_t)1 << ring.count_bits) * RING_DESC;
	ni = ((size_t)1 << ring.count_bits) * RING_INFO;
	nt = (size_t)1 << ring.size_bits;
	/* Exact-size copies, so ASan sees any read past an array. */
	descs = calloc(1, nd);
	infos = calloc(1, ni);
	text_data = calloc(1, nt);
	data += sizeof(head);
	size -= sizeof(head);
	memcpy(descs, data, size < nd ? size : nd);
	size -= size < nd ? size : nd;
	data += nd;
	memcpy(infos, data, size < ni ? size : ni);
	size -= size < ni ? size : ni;
	data += ni;
	memcpy(text_data, data, size < nt ? size : nt);
	ring.descs = descs;
	ring.infos = infos;
	ring.data = text_data;
	r = printk_format(&vi, &ring, &text, &len);
	if (r == 0) {
		if (strlen(text) != len)
			abort();
		free(text);
	} else if (r != -EINVAL) {
		abort();
	}
	free(descs);
	free(infos);
	free(text_data);
	return 0;
}
