/* printk: the crashed kernel's log, read from its lockless printk ring
 * buffer (Linux 5.10 and later) through the offsets VMCOREINFO exports,
 * as text lines "[seconds.micros] message". */
#ifndef LIFEBOAT_KDUMP_PRINTK_H
#define LIFEBOAT_KDUMP_PRINTK_H

#include <stddef.h>
#include <stdint.h>

#include "kdump/elfcore.h"
#include "kdump/kvmem.h"
#include "kdump/vmcoreinfo.h"

/* The ring's text area is read whole: refuse one larger than this. */
#define PRINTK_TEXT_MAX (64u << 20)

/* Read the log. *text is malloc'd (the caller frees), NUL-terminated.
 * Returns 0, -EOPNOTSUPP without the ring's offsets (an older kernel),
 * -EINVAL for offsets that do not fit their structures
 * (vmcoreinfo_check_printk says which) or an inconsistent ring,
 * -EFAULT/-ENOENT/-EIO reading it. */
int printk_read(const struct elfcore *core, const struct vmcoreinfo *vi, char **text, size_t *len);

/* The same on a ring already in memory (for tests and the reader above):
 * descs, infos and data are the ring's three arrays. */
struct printk_ring {
	uint32_t count_bits, size_bits;
	uint64_t head_id, tail_id;
	const uint8_t *descs, *infos, *data;
};
int printk_format(const struct vmcoreinfo *vi, const struct printk_ring *ring, char **text, size_t *len);

#endif
