/* swsusp: what the first page of a swap area says about hibernation. */
#ifndef LIFEBOAT_SWSUSP_H
#define LIFEBOAT_SWSUSP_H

#include <stddef.h>
#include <stdint.h>

/* The signature sits in the last 10 bytes of the swap area's first page
 * (mm/swapfile.c, kernel/power/swap.c); a hibernating kernel replaces the
 * swap signature there with its own and keeps the old one 10 bytes before. */
#define SWSUSP_SIG_LEN 10

enum swsusp_kind {
	SWSUSP_NONE,        /* no swap or hibernation signature */
	SWSUSP_SWAP,        /* plain swap: SWAPSPACE2 (v1) or SWAP-SPACE (v0) */
	SWSUSP_KERNEL,      /* the kernel's hibernation image: S1SUSPEND */
	SWSUSP_USERSPACE,   /* uswsusp's image: ULSUSPEND (needs its own resume tool) */
	SWSUSP_OTHER,       /* S2SUSPEND, LINHIB0001: not something the kernel restores */
};

struct swsusp_header {
	enum swsusp_kind kind;
	char sig[SWSUSP_SIG_LEN + 1];       /* the signature found, NUL-terminated */
	/* Kernel images only (S1SUSPEND): */
	char orig_sig[SWSUSP_SIG_LEN + 1];  /* the swap signature the kernel put aside */
	uint64_t image;                     /* sector of the first swap-map page */
	uint32_t flags;                     /* SF_* flags for the restoring kernel */
};

/* Read the header from the first page of a swap area, page_size bytes
 * (page must hold at least that many). Returns 0 with *out filled (kind
 * SWSUSP_NONE when nothing is recognised), or -EINVAL for a page size that
 * is not a power of two between 4 KiB and 64 KiB or a short buffer. */
int swsusp_header_parse(const unsigned char *page, size_t len, size_t page_size,
			struct swsusp_header *out);
/* "swap", "kernel hibernation image", ... for messages. */
const char *swsusp_kind_name(enum swsusp_kind kind);

#endif
