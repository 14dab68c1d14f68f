/* vmcoreinfo_check: whether the sizes and offsets of a VMCOREINFO note fit
 * the structures they describe, before any of them is used to read the
 * crashed kernel's memory into a buffer. */
#ifndef LIFEBOAT_KDUMP_VMCOREINFO_CHECK_H
#define LIFEBOAT_KDUMP_VMCOREINFO_CHECK_H

#include <stddef.h>

#include "kdump/vmcoreinfo.h"

/* The most physical address bits any architecture the capture runs on has
 * (x86_64 with 5-level paging, arm64 with 52-bit PAs). */
#define VMCOREINFO_PHYS_BITS_MAX 52

/* Whether the page filter (struct page through mem_section) can use vi.
 * Returns 0; -EOPNOTSUPP when a key it needs is absent (an older or other
 * kernel); -EINVAL when a value does not fit (a corrupt note). Either way
 * why (may be NULL) names the key and the value, for the one message. */
int vmcoreinfo_check_filter(const struct vmcoreinfo *vi, char *why, size_t size);
/* The same for the printk ring reader. */
int vmcoreinfo_check_printk(const struct vmcoreinfo *vi, char *why, size_t size);
/* NUMBER(MAX_PHYSMEM_BITS) when the note has a sane one, else 0. */
unsigned vmcoreinfo_phys_bits(const struct vmcoreinfo *vi);

#endif
