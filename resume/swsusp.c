/* swsusp: what the first page of a swap area says about hibernation.
 *
 * Layout of the page's tail written by the kernel (kernel/power/swap.c,
 * struct swsusp_header, 64-bit sector_t), counted from the page's end:
 *   -40 u32 hw_sig   -36 u32 crc32   -32 u64 image   -24 u32 flags
 *   -20 char orig_sig[10]            -10 char sig[10]
 * Values are in the byte order of the machine that hibernated, which is the
 * one resuming.
 */
#include "resume/swsusp.h"

#include <errno.h>
#include <string.h>

struct signature {
	const char *magic;     /* compared over its length, at page_size - 10 */
	enum swsusp_kind kind;
};

/* SWAP-SPACE and SWAPSPACE2 are 10 bytes; the hibernation ones are 9 plus a
 * NUL, compared with the NUL so "S1SUSPENDX" is not taken for an image. */
static const struct signature signatures[] = {
	{ "SWAPSPACE2",    SWSUSP_SWAP },
	{ "SWAP-SPACE",    SWSUSP_SWAP },
	{ "S1SUSPEND\0",   SWSUSP_KERNEL },
	{ "ULSUSPEND\0",   SWSUSP_USERSPACE },
	{ "S2SUSPEND\0",   SWSUSP_OTHER },
	{ "LINHIB0001",    SWSUSP_OTHER },
};

static const char *const kind_names[] = {
	[SWSUSP_NONE] = "no swap signature",
	[SWSUSP_SWAP] = "swap without a hibernation image",
	[SWSUSP_KERNEL] = "kernel hibernation image",
	[SWSUSP_USERSPACE] = "uswsusp (userspace) hibernation image",
	[SWSUSP_OTHER] = "hibernation image of another kind",
};

const char *swsusp_kind_name(enum swsusp_kind kind)
{
	return kind_names[kind];
}

static void copy_sig(char *dst, const unsigned char *src)
{
	size_t n = 0;

	/* Printable bytes only: the string goes to the console. */
	for (; n < SWSUSP_SIG_LEN && src[n] >= 0x20 && src[n] < 0x7f; n++)
		dst[n] = (char)src[n];
	dst[n] = '\0';
}

static uint64_t read_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t read_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int swsusp_header_parse(const unsigned char *page, size_t len, size_t page_size,
			struct swsusp_header *out)
{
	const unsigned char *tail;

	memset(out, 0, sizeof(*out));
	if (page_size < 4096 || page_size > 65536 || (page_size & (page_size - 1)) ||
	    len < page_size)
		return -EINVAL;
	tail = page + page_size - SWSUSP_SIG_LEN;
	copy_sig(out->sig, tail);
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++) {
		if (memcmp(tail, signatures[i].magic, SWSUSP_SIG_LEN) == 0) {
			out->kind = signatures[i].kind;
			break;
		}
	}
	if (out->kind == SWSUSP_KERNEL) {
		copy_sig(out->orig_sig, page + page_size - 20);
		out->image = read_u64(page + page_size - 32);
		out->flags = read_u32(page + page_size - 24);
	}
	return 0;
}
