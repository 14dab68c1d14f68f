/* kvmem: read the crashed kernel's memory by kernel virtual address, walking
 * its x86_64 page tables (4 or 5 levels) found through VMCOREINFO. */
#include "kdump/kvmem.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

/* The kernel image is mapped at this address plus the KASLR offset, and
 * the symbol addresses in VMCOREINFO already include that offset: the
 * physical address is the distance from here plus phys_base. */
#define START_KERNEL_MAP 0xffffffff80000000ULL
#define PTE_PRESENT 0x1ULL
#define PTE_HUGE 0x80ULL
#define PTE_ADDR 0x000ffffffffff000ULL

int kvmem_init(struct kvmem *kv, const struct elfcore *core, const struct vmcoreinfo *vi)
{
	memset(kv, 0, sizeof(*kv));
	if (core->machine != EM_X86_64 || vi->init_top_pgt == VI_UNSET || vi->phys_base == VI_UNSET)
		return -EOPNOTSUPP;
	kv->core = core;
	kv->top_pgt = (uint64_t)vi->init_top_pgt - START_KERNEL_MAP + (uint64_t)vi->phys_base;
	kv->levels = vi->pgtable_l5 == 1 ? 5 : 4;
	return 0;
}

static int walk(struct kvmem *kv, uint64_t vaddr, uint64_t *paddr)
{
	uint64_t table = kv->top_pgt;

	for (int level = kv->levels; level >= 1; level--) {
		unsigned shift = 12 + 9 * (unsigned)(level - 1);
		uint64_t entry, size = 1ULL << shift;
		int r = elfcore_read_kernel(kv->core, table + ((vaddr >> shift) & 511) * 8, &entry, 8);

		if (r < 0)
			return r;
		if (!(entry & PTE_PRESENT))
			return -EFAULT;
		/* A large page at the PUD (1 GiB) or PMD (2 MiB) level ends the walk. */
		if (level == 1 || ((level == 2 || level == 3) && (entry & PTE_HUGE))) {
			struct kvmem_mapping *m = &kv->cache[kv->next++ % KVMEM_CACHED];

			m->vbase = vaddr & ~(size - 1);
			m->pbase = entry & PTE_ADDR & ~(size - 1);
			m->size = size;
			*paddr = m->pbase + (vaddr - m->vbase);
			return 0;
		}
		table = entry & PTE_ADDR;
	}
	return -EFAULT;
}

int kvmem_translate(struct kvmem *kv, uint64_t vaddr, uint64_t *paddr)
{
	for (unsigned i = 0; i < KVMEM_CACHED; i++) {
		const struct kvmem_mapping *m = &kv->cache[i];

		if (m->size && vaddr - m->vbase < m->size) {
			*paddr = m->pbase + (vaddr - m->vbase);
			return 0;
		}
	}
	return walk(kv, vaddr, paddr);
}

int kvmem_read(struct kvmem *kv, uint64_t vaddr, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		size_t chunk = 4096 - (vaddr & 4095);
		uint64_t paddr;
		int r = kvmem_translate(kv, vaddr, &paddr);

		if (chunk > len)
			chunk = len;
		if (r == 0)
			r = elfcore_read_kernel(kv->core, paddr, p, chunk);
		if (r < 0)
			return r;
		p += chunk;
		vaddr += chunk;
		len -= chunk;
	}
	return 0;
}
