/* kvmem: read the crashed kernel's memory by kernel virtual address, walking
 * its x86_64 page tables (4 or 5 levels) found through VMCOREINFO. */
#ifndef LIFEBOAT_KDUMP_KVMEM_H
#define LIFEBOAT_KDUMP_KVMEM_H

#include <stddef.h>
#include <stdint.h>

#include "kdump/elfcore.h"
#include "kdump/vmcoreinfo.h"

/* The last mappings found: the filter's reads alternate between the
 * direct map (mem_section) and the vmemmap (struct pages), and a walk
 * reads a page table in each level. */
#define KVMEM_CACHED 4

struct kvmem_mapping {
	uint64_t vbase, pbase, size;   /* size 0: unused */
};

struct kvmem {
	const struct elfcore *core;
	uint64_t top_pgt;      /* physical address of the top page table */
	int levels;            /* 4 or 5 */
	struct kvmem_mapping cache[KVMEM_CACHED];
	unsigned next;         /* the entry the next walk replaces */
};

/* Returns 0, or -EOPNOTSUPP when the core is not x86_64 or the note lacks
 * the page table's address. */
int kvmem_init(struct kvmem *kv, const struct elfcore *core, const struct vmcoreinfo *vi);
/* Physical address of vaddr: 0, -EFAULT if it is not mapped. */
int kvmem_translate(struct kvmem *kv, uint64_t vaddr, uint64_t *paddr);
/* Copy len bytes at vaddr, page by page. 0, -EFAULT, -ENOENT, -EIO. */
int kvmem_read(struct kvmem *kv, uint64_t vaddr, void *buf, size_t len);

#endif
