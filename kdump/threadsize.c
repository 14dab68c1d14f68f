/* threadsize: the compressing threads sized to the capture's memory. */
#include "kdump/threadsize.h"

#include <stdlib.h>
#include <string.h>

#include "kdump/pagepool.h"

unsigned threadsize_pick(uint64_t mem_avail, unsigned cpus, uint64_t per_thread)
{
	uint64_t by_mem, n;

	if (cpus <= 1)
		return 0;
	n = cpus - 1;
	by_mem = mem_avail / THREADSIZE_MEM_SHARE / (per_thread ? per_thread : 1);
	if (by_mem < n)
		n = by_mem;
	return n > PAGEPOOL_THREADS_MAX ? PAGEPOOL_THREADS_MAX : (unsigned)n;
}

uint64_t threadsize_per_thread(const struct pagecomp *comp, size_t page_size)
{
	uint64_t batch = (uint64_t)PAGEPOOL_BATCH * (page_size + comp->bound(page_size));

	return 2 * batch + THREADSIZE_STATE_MAX + PAGEPOOL_WORKER_STACK;
}

uint64_t threadsize_mem_available(const char *meminfo)
{
	static const char key[] = "MemAvailable:";
	const char *p = meminfo;
	unsigned long long kib;
	char *end;

	while (p && strncmp(p, key, sizeof(key) - 1) != 0) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return 0;
	p += sizeof(key) - 1;
	p += strspn(p, " \t");
	if (*p < '0' || *p > '9')
		return 0;
	kib = strtoull(p, &end, 10);
	if (strncmp(end, " kB", 3) != 0 || kib > UINT64_MAX / 1024)
		return 0;
	return (uint64_t)kib * 1024;
}
